type Mymodule::Point { }
# <- error[unsupported-expression]: Expressions of type a Type Definition are not supported in this version of Puppet
type Mymodule::Small[1] = Integer[0, 9]
#    ^ error[unsupported-expression]: Expressions of type a Type Mapping are not supported in this version of Puppet
