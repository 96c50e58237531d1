# Puppet 7's library with its settings (confdir, vardir, codedir, logdir, rundir) in a
# temporary folder of its own: a script asking Puppet for a verdict never reads or
# writes the machine's Puppet configuration. Required by every such script.
require 'puppet'
require 'tmpdir'
require 'fileutils'

# Initializes Puppet's settings in a new temporary folder whose name starts with
# `prefix`, and returns that folder (the caller removes it when done).
def isolated_puppet(prefix)
  work = Dir.mktmpdir(prefix)
  Puppet.initialize_settings(%w[confdir vardir codedir logdir rundir].flat_map { |s| ["--#{s}", File.join(work, s)] })
  work
end
