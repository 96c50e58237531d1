# frozen_string_literal: true

# Installs the source gem: compiles pupcheck with cargo from the crate packed in
# crate/ beside this file, puts the binary in the gem's libexec/ (where
# lib/pupcheck.rb looks), and writes a Makefile with nothing to do, because RubyGems
# runs `make` and `make install` after an extconf.rb.
#
# Environment:
#   CARGO                       the cargo to run (default: cargo on PATH)
#   CARGO_TARGET_DIR            where cargo builds (default: crate/target, removed after
#                               the build: it holds hundreds of megabytes); set it to
#                               reuse a warm build
#   PUPCHECK_GEM_CARGO_PROFILE  cargo's profile (default release; dev for a quick build)
require 'fileutils'
require 'json'
require 'rbconfig'

crate = File.join(__dir__, 'crate')
gem_root = File.expand_path('../..', __dir__)
windows = RbConfig::CONFIG['host_os'].match?(/mswin|mingw|cygwin/)

# The full path of a program found on PATH (or given as a path), or nil.
def find_program(name, windows)
  return (File.executable?(name) ? name : nil) if name.include?(File::SEPARATOR)

  exts = windows ? ENV.fetch('PATHEXT', '.EXE;.BAT;.CMD').split(';') + [''] : ['']
  ENV.fetch('PATH', '').split(File::PATH_SEPARATOR).each do |dir|
    exts.each do |ext|
      path = File.join(dir, name + ext)
      return path if File.file?(path) && File.executable?(path)
    end
  end
  nil
end

rust_version = File.read(File.join(crate, 'Cargo.toml'))[/^rust-version\s*=\s*"([^"]+)"/, 1]
cargo_name = ENV['CARGO'].to_s.empty? ? 'cargo' : ENV['CARGO']
cargo = find_program(cargo_name, windows)
unless cargo
  abort <<~MESSAGE
    pupcheck: cannot build pupcheck: Rust's cargo (`#{cargo_name}`) is not on PATH.
    This is the source gem of pupcheck, which compiles it when it is installed.
    Install Rust #{rust_version || 'stable'} or newer (https://rustup.rs) and install the gem
    again, or use the prebuilt gem for x86_64-linux or a binary from the project's GitHub
    releases.
  MESSAGE
end

profile = ENV['PUPCHECK_GEM_CARGO_PROFILE'].to_s
profile = 'release' if profile.empty?
env = {}
own_target = ENV['CARGO_TARGET_DIR'].to_s.empty?
env['CARGO_TARGET_DIR'] = File.join(crate, 'target') if own_target
# build.rs records the commit of the git repository around the sources; a gem installed
# inside a project's repository (vendor/bundle) must not take the project's commit.
env['GIT_DIR'] = File.join(crate, 'no-git-repository')

command = [cargo, 'build', '--locked', '--profile', profile, '--bin', 'pupcheck',
           '--message-format=json-render-diagnostics']
puts "pupcheck: compiling with #{command.join(' ')} (a few minutes)"
$stdout.flush

# Cargo's JSON messages on stdout name the binary wherever the target directory, the
# profile or CARGO_BUILD_TARGET put it; its progress and errors go to stderr.
binary = nil
IO.popen(env, command, chdir: crate) do |messages|
  messages.each_line do |line|
    message = begin
      JSON.parse(line)
    rescue JSON::ParserError
      next
    end
    next unless message['reason'] == 'compiler-artifact'
    next unless message.dig('target', 'name') == 'pupcheck' && message['executable']

    binary = message['executable']
  end
end
abort "pupcheck: `cargo build` failed (#{$?}); see cargo's messages above." unless $?.success?
abort 'pupcheck: `cargo build` named no pupcheck binary.' unless binary && File.file?(binary)

libexec = File.join(gem_root, 'libexec')
FileUtils.mkdir_p(libexec)
installed = File.join(libexec, windows ? 'pupcheck.exe' : 'pupcheck')
FileUtils.cp(binary, installed)
FileUtils.chmod(0o755, installed)
FileUtils.rm_rf(env['CARGO_TARGET_DIR']) if own_target
puts "pupcheck: installed #{installed}"

# RubyGems runs `make clean`, `make` and `make install` here: nothing is left to do.
File.write(File.join(__dir__, 'Makefile'), "all:\n\ninstall:\n\nclean:\n\n.PHONY: all install clean\n")
