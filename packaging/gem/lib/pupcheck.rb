# frozen_string_literal: true

require 'rbconfig'

# The pupcheck gem: where its binary is, and which version it is.
#
# The binary lives in libexec/ at the gem's root: packed there in the prebuilt platform
# gem (whose PLATFORM file names the platform it was built for), or put there by
# ext/pupcheck/extconf.rb when the source gem compiled it on this machine.
module Pupcheck
  ROOT = File.expand_path('..', __dir__)
  VERSION = File.read(File.join(ROOT, 'VERSION')).strip

  # The gem holds no pupcheck this machine can run.
  class BinaryNotFound < StandardError; end

  class << self
    # The absolute path of the pupcheck binary; raises BinaryNotFound, with what to do,
    # when there is none for this platform.
    def binary_path
      built_for = bundled_platform
      if built_for && !runs_here?(built_for)
        raise BinaryNotFound, "this pupcheck gem holds a binary for #{built_for}, and this " \
                              "machine is #{local_platform}. #{ALTERNATIVES}"
      end
      path = File.join(ROOT, 'libexec', windows? ? 'pupcheck.exe' : 'pupcheck')
      return path if File.file?(path)

      raise BinaryNotFound, "this pupcheck gem has no binary (looked for #{path}); " \
                            "its installation may have failed. #{ALTERNATIVES}"
    end

    # The platform the packed binary was built for, or nil when it was built here.
    def bundled_platform
      file = File.join(ROOT, 'PLATFORM')
      File.read(file).strip if File.file?(file)
    end

    def local_platform
      Gem::Platform.local.to_s
    end

    private

    # Only the CPU and the OS count: the released Linux binaries are static (musl), so
    # they run on glibc and musl systems alike.
    def runs_here?(platform)
      wanted = Gem::Platform.new(platform)
      here = Gem::Platform.local
      wanted.cpu == here.cpu && wanted.os == here.os
    end

    def windows?
      RbConfig::CONFIG['host_os'].match?(/mswin|mingw|cygwin/)
    end
  end

  ALTERNATIVES = 'Install the source gem, which compiles pupcheck with Rust\'s cargo ' \
                 '(`gem install pupcheck --platform ruby`, or in a Gemfile with ' \
                 '`force_ruby_platform: true`), or use a binary from the project\'s ' \
                 'GitHub releases.'
end
