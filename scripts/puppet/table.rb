# What the scripts that write pupcheck's tables (data/*.toml) share: Puppet's settings
# in a temporary folder, TOML strings, and writing a table where scripts/puppet/
# check_tables.sh asks (PUPCHECK_DATA_DIR), else into data/.
require_relative 'isolated_puppet'
require 'tmpdir'

module Table
  # Puppet's settings, in a folder of their own (nothing of the machine's is read).
  def self.start
    work = isolated_puppet('pupcheck-table')
    at_exit { FileUtils.remove_entry(work) }
  end

  # A TOML basic string.
  def self.quote(s)
    '"' + s.to_s.gsub('\\', '\\\\\\\\').gsub('"', '\"').gsub("\n", '\n') + '"'
  end

  def self.write(name, text)
    File.write(File.join(ENV.fetch('PUPCHECK_DATA_DIR', File.join(__dir__, '../../data')), name), text)
  end
end
