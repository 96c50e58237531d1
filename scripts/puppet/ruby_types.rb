# Writes tests/golden/corpus_ruby_types.jsonl: for each resource type a module of the
# corpus writes in Ruby (<module>/lib/puppet/type/<name>.rb), what Puppet itself loads
# for it: its attributes (parameters, properties, key attributes), the closed lists of
# values some accept, and a Resource API type's attribute types. tests/ruby_types.rs
# checks pupcheck's reader of those files (ruby::resource_type) against them: a type it
# reads must accept every attribute and value Puppet does. Run from the project root:
#   ruby -I/usr/lib/ruby/vendor_ruby scripts/puppet/ruby_types.rb [MODULES_DIR] [OUT]
require_relative 'isolated_puppet'
require 'json'
require 'tmpdir'
require_relative 'type_values'

work = isolated_puppet('pupcheck-ruby-types')
modules = ARGV[0] || '/usr/share/puppet/modules.available'
out = ARGV[1] || File.join(__dir__, '../../tests/golden/corpus_ruby_types.jsonl')
$LOAD_PATH.unshift(*Dir.glob(File.join(modules, '*', 'lib')).sort)
rows = Dir.glob(File.join(modules, '*', 'lib', 'puppet', 'type', '*.rb')).sort.map do |file|
  name = File.basename(file, '.rb')
  row = { 'module' => file.delete_prefix("#{modules}/").split('/').first, 'type' => name }
  begin
    type = Puppet::Type.type(name.to_sym)
    if type
      row['attributes'] = (type.parameters + type.properties.map(&:name) + type.key_attributes).map(&:to_s).uniq.sort
      closed = row['attributes'].to_h { |attr| [attr, closed_values(type, attr)] }.compact
      row['values'] = closed.transform_values(&:first) unless closed.empty?
      aliases = closed.transform_values(&:last).reject { |_, list| list.empty? }
      row['aliases'] = aliases unless aliases.empty?
      types = resource_api_types(type)
      row['types'] = types unless types.empty?
    else
      row['error'] = 'not loaded'
    end
  rescue Exception => e # rubocop:disable Lint/RescueException
    row['error'] = e.message[0, 200]
  end
  JSON.generate(row)
end
File.write(out, rows.join("\n") + "\n")
puts "#{out}: #{rows.size} types"
FileUtils.remove_entry(work)
