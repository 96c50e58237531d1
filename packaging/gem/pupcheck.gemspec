# frozen_string_literal: true

# Evaluated by `gem build` in the staging folder scripts/build_gem.sh fills, never in
# this source folder: the script writes VERSION (Cargo.toml's version) and, for the
# prebuilt gem, PLATFORM and libexec/pupcheck; the source gem has ext/ instead, which
# compiles pupcheck with cargo when the gem is installed.
Gem::Specification.new do |spec|
  root = __dir__
  platform_file = File.join(root, 'PLATFORM')

  spec.name = 'pupcheck'
  spec.version = File.read(File.join(root, 'VERSION')).strip
  spec.summary = 'A static type checker and linter for the Puppet language'
  spec.description = 'pupcheck parses every Puppet manifest and EPP template, checks types ' \
                     'across modules, style and Hiera data, and reports problems before a ' \
                     'catalog compiles. This gem brings the pupcheck binary and a Rake task.'
  spec.authors = ['The pupcheck authors']
  spec.license = 'MIT'
  homepage = ENV.fetch('PUPCHECK_GEM_HOMEPAGE', '')
  unless homepage.empty?
    spec.homepage = homepage
    spec.metadata['source_code_uri'] = homepage
  end
  # Puppet 7's agents and most CI images ship Ruby 2.7.
  spec.required_ruby_version = '>= 2.7'

  # Everything staged (dot files included), so the list never drifts from the script.
  spec.files = Dir.glob('**/*', File::FNM_DOTMATCH, base: root)
                  .reject { |path| File.directory?(File.join(root, path)) }
                  .sort
  spec.bindir = 'exe'
  spec.executables = ['pupcheck']
  spec.require_paths = ['lib']

  if File.exist?(platform_file)
    spec.platform = File.read(platform_file).strip
  else
    spec.extensions = ['ext/pupcheck/extconf.rb']
  end
end
