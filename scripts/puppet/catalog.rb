# Compiles a class with Puppet as a node of the given facts would get it, and writes the
# catalog's resources and containment edges: what `scripts/compare_catalogs.py` compares
# with `pupcheck catalog --class`. One JSON object a line on stdin:
#   {"id": ..., "class": "role::web", "environment": "<folder with hiera.yaml>",
#    "modulepath": ["<folder>", ...], "facts": "<facts JSON file>"}
# and one a line on stdout: the input with "resources" ([{"type", "title", "exported"}],
# virtual resources not realized left out, as in a catalog an agent gets), "edges"
# ([[container, contained], ...] as references) and "error" (the compile's, or null).
require_relative 'isolated_puppet'
require_relative 'hiera_copy'
require 'json'
require 'tmpdir'
require 'yaml'

work = isolated_puppet('pupcheck-catalog')

# The environment, or a copy of it (links to its entries) whose hiera.yaml keeps only
# the levels Puppet reads by itself (yaml_data, json_data, hocon_data): hiera-eyaml and
# custom backends (hiera_http, ...) are not there, and they hold secrets and remote
# data, which a comparison of resources does not need.
OWN_BACKENDS = %w[yaml_data json_data hocon_data].freeze

def own_backends_only(work, environment)
  config = File.join(environment, 'hiera.yaml')
  return environment unless File.file?(config)

  hiera = YAML.safe_load(File.read(config))
  return environment unless hiera.is_a?(Hash) && hiera['hierarchy'].is_a?(Array)

  backend = lambda do |level, default|
    keys = %w[data_hash lookup_key data_dig]
    key = keys.find { |k| level.is_a?(Hash) && level.key?(k) }
    key ? level[key].to_s : default
  end
  default = backend.call(hiera['defaults'], 'yaml_data')
  kept = hiera['hierarchy'].select { |l| OWN_BACKENDS.include?(backend.call(l, default)) }
  return environment if kept.size == hiera['hierarchy'].size

  hiera['defaults'] = { 'data_hash' => 'yaml_data', 'datadir' => hiera.dig('defaults', 'datadir') || 'data' }
  hiera['hierarchy'] = kept
  with_hiera(work, environment, hiera, 'env')
end

$stdin.each_line do |line|
  next if line.strip.empty?
  kase = JSON.parse(line)
  facts = JSON.parse(File.read(kase['facts']))
  begin
    catalog = nil
    Puppet::Pal.in_environment('pupcheck', env_dir: own_backends_only(work, kase['environment']), modulepath: kase['modulepath'],
                                           facts: facts) do |pal|
      pal.with_catalog_compiler do |c|
        Puppet[:strict] = :warning
        Puppet[:strict_variables] = false
        Puppet[:hiera_config] = File.join(work, 'no-global-hiera.yaml')
        c.evaluate_string("include #{kase['class']}")
        c.compile_additions
        catalog = c.send(:catalog)
      end
    end
    kase['resources'] = catalog.resources.reject(&:virtual?).map do |r|
      { 'type' => r.type.to_s, 'title' => r.title.to_s, 'exported' => r.exported? ? true : false }
    end
    kase['edges'] = catalog.edges.map { |e| [e.source.ref, e.target.ref] }
    kase['error'] = nil
  rescue Exception => e # rubocop:disable Lint/RescueException
    raise if e.is_a?(Interrupt)
    kase['error'] = e.message.to_s[0, 500]
  end
  puts JSON.generate(kase)
  $stdout.flush
end
FileUtils.remove_entry(work)
