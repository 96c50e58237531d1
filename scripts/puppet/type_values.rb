# What Puppet itself knows of a resource type's attributes, shared by the scripts that
# write pupcheck's tables and goldens from it (resource_types.rb, ruby_types.rb).

# The values `attr` of `type` accepts when they are a closed list of names: the names
# and their aliases (`true` for `running`), both of which ValueCollection#match? takes;
# nil when the attribute takes a regexp, lists nothing, or validates values its own way.
def closed_values(type, attr)
  klass = type.attrclass(attr.to_sym)
  return nil unless klass.respond_to?(:value_collection)

  collection = klass.value_collection
  return nil if collection.regexes.any? || collection.values.empty?

  # Validation as Puppet's own classes define it, not overridden by the type.
  own = [Puppet::Parameter, Puppet::Property]
  return nil unless own.include?(klass.instance_method(:unsafe_validate).owner)
  return nil unless own.include?(klass.instance_method(:validate).owner)

  names = collection.values.map(&:to_s)
  aliases = collection.instance_variable_get(:@values).values.flat_map(&:aliases).map(&:to_s)
  [names, aliases - names]
end

# The Puppet type a Resource API type declares for each attribute, by name.
def resource_api_types(type)
  return {} unless type.respond_to?(:type_definition)

  type.type_definition.attributes.to_h { |name, options| [name.to_s, options[:type]] }
end
