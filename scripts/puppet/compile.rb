# Compiles Puppet snippets against the corpus modulepath and says whether each fails
# with the expected message: how pupcheck's type findings on the corpus are confirmed
# (scripts/confirm_corpus_type_findings.sh). One JSON object a line on stdin:
#   {"id": ..., "code": "<puppet code>", "expect": "<text Puppet's error must contain>"}
# ("strict_variables": true makes reading an unknown variable an error, as Puppet 8 does
# by default: how a warning about one is confirmed. "environment": a folder compiles the
# snippet in that environment, with its hiera.yaml and data. "hiera_pin": {"config":
# a hiera.yaml, "file": one of its data files, "module": the module whose layer it is,
# or null for the environment's}: the layer is compiled with that file as its first
# level, whatever the node's facts: how a finding on Hiera data is confirmed.
# "facts": {"os.family": "RedHat"} sets those facts (dotted paths) over the fact set:
# how a finding on the nodes where a fact has a value is confirmed.)
# and one a line on stdout: the input with "confirmed" (true/false) and "error".
# Each snippet gets a fresh environment and catalog compiler (Puppet's PAL), with the
# facts of scripts/puppet/facts-debian12.json; defined types are evaluated too, and the
# catalog is turned into resources of their types as an agent does before applying.
require_relative 'isolated_puppet'
require_relative 'hiera_copy'
require 'json'
require 'tmpdir'
require 'yaml'

work = isolated_puppet('pupcheck-compile')
modulepath = ENV.fetch('PUPCHECK_MODULEPATH', '/usr/share/puppet/modules').split(':')
facts_json = File.read(File.join(__dir__, 'facts-debian12.json'))

# A copy of the folder of the hiera.yaml `config` (links to its entries) whose
# hierarchy starts with a level reading `file`.
def pin_hiera_level(work, config, file)
  folder = File.dirname(config)
  hiera = YAML.safe_load(File.read(config))
  relative = File.dirname(file).delete_prefix(folder + '/')
  level = { 'name' => 'pupcheck', 'datadir' => relative, 'path' => File.basename(file) }
  hiera['hierarchy'] = [level] + (hiera['hierarchy'] || [])
  with_hiera(work, folder, hiera, 'pin')
end

$stdin.each_line do |line|
  next if line.strip.empty?
  kase = JSON.parse(line)
  begin
    # PAL freezes the facts it is given: a fresh copy each time.
    compile = lambda do |pal|
      pal.with_catalog_compiler do |c|
        Puppet[:strict] = :warning
        Puppet[:strict_variables] = kase.fetch('strict_variables', false)
        # The global Hiera layer's configuration ("hiera_config"), else none.
        Puppet[:hiera_config] = kase.fetch('hiera_config', File.join(work, 'no-global-hiera.yaml'))
        c.evaluate_string(kase['code'])
        # As a compile of a main manifest does after its top-level code: the node
        # definition matching the node (else `default`), when the code has any.
        c.send(:internal_compiler).send(:evaluate_ast_node)
        c.compile_additions
        # As an agent does before applying: every resource becomes an instance of its
        # type, which validates the attribute values (`Parameter x failed on ...`).
        # (PAL keeps the catalog private.) The agent first replaces Deferred values by
        # what their functions return (with the facts the compile had).
        catalog = c.send(:catalog).to_resource
        Puppet::Pops::Evaluator::DeferredResolver.resolve_and_replace(
          nil, catalog, Puppet.lookup(:current_environment)
        )
        catalog.to_ral
      end
    end
    facts = JSON.parse(facts_json)
    (kase['facts'] || {}).each do |path, value|
      *parents, last = path.split('.')
      parents.reduce(facts) { |at, key| at[key] ||= {} }[last] = value
    end
    case_modulepath = modulepath
    if (pin = kase['hiera_pin'])
      pinned = pin_hiera_level(work, pin['config'], pin['file'])
      if pin['module']
        links = Dir.mktmpdir('pin-modules', work)
        File.symlink(pinned, File.join(links, pin['module']))
        case_modulepath = [links] + modulepath
      else
        kase['environment'] = pinned
      end
    end
    if kase['environment']
      Puppet::Pal.in_environment('pupcheck', env_dir: kase['environment'], modulepath: case_modulepath, facts: facts, &compile)
    else
      Puppet::Pal.in_tmp_environment('pupcheck', modulepath: case_modulepath, facts: facts, &compile)
    end
    kase['confirmed'] = false
    kase['error'] = nil
  rescue Exception => e # rubocop:disable Lint/RescueException
    raise if e.is_a?(Interrupt)
    message = e.message.to_s
    # Puppet puts where the code is inside some messages (`no parameter named 'x'
    # (file: ..., line: 3) on Foo[a]`): a finding says it by its position instead.
    plain = message.gsub(/ \((?:file: [^)]*|line: \d+(?:, column: \d+)?)\)/, '')
    kase['confirmed'] = message.include?(kase['expect']) || plain.include?(kase['expect'])
    kase['error'] = message[0, 500]
  end
  puts JSON.generate(kase)
  $stdout.flush
end
FileUtils.remove_entry(work)
