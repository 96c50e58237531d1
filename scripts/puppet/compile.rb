# Compiles Puppet snippets against the corpus modulepath and says whether each fails
# with the expected message: how pupcheck's type findings on the corpus are confirmed
# (scripts/confirm_corpus_type_findings.sh). One JSON object a line on stdin:
#   {"id": ..., "code": "<puppet code>", "expect": "<text Puppet's error must contain>"}
# ("strict_variables": true makes reading an unknown variable an error, as Puppet 8 does
# by default: how a warning about one is confirmed.)
# and one a line on stdout: the input with "confirmed" (true/false) and "error".
# Each snippet gets a fresh environment and catalog compiler (Puppet's PAL), with the
# facts of scripts/puppet/facts-debian12.json; defined types are evaluated too, and the
# catalog is turned into resources of their types as an agent does before applying.
require 'puppet'
require 'json'
require 'tmpdir'

work = Dir.mktmpdir('pupcheck-compile')
Puppet.initialize_settings(%w[confdir vardir codedir logdir rundir].flat_map { |s| ["--#{s}", File.join(work, s)] })
modulepath = ENV.fetch('PUPCHECK_MODULEPATH', '/usr/share/puppet/modules').split(':')
facts_json = File.read(File.join(__dir__, 'facts-debian12.json'))

$stdin.each_line do |line|
  next if line.strip.empty?
  kase = JSON.parse(line)
  begin
    # PAL freezes the facts it is given: a fresh copy each time.
    Puppet::Pal.in_tmp_environment('pupcheck', modulepath: modulepath, facts: JSON.parse(facts_json)) do |pal|
      pal.with_catalog_compiler do |c|
        Puppet[:strict] = :warning
        Puppet[:strict_variables] = kase.fetch('strict_variables', false)
        c.evaluate_string(kase['code'])
        c.compile_additions
        # As an agent does before applying: every resource becomes an instance of its
        # type, which validates the attribute values (`Parameter x failed on ...`).
        # (PAL keeps the catalog private.)
        c.send(:catalog).to_ral
      end
    end
    kase['confirmed'] = false
    kase['error'] = nil
  rescue Exception => e # rubocop:disable Lint/RescueException
    raise if e.is_a?(Interrupt)
    message = e.message.to_s
    kase['confirmed'] = message.include?(kase['expect'])
    kase['error'] = message[0, 500]
  end
  puts JSON.generate(kase)
  $stdout.flush
end
FileUtils.remove_entry(work)
