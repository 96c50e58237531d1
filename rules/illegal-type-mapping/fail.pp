type Runtime['ruby', 'My::Point'] = [/^Puppet::(\w+)$/, 'My::\1']
#    ^ error[illegal-type-mapping]: Illegal type mapping. Expected a Type on the left side, got A Type Mapping
type Runtime['ruby', [/^My::(\w+)$/, 'Your::\1']] = Integer
#    ^ error[illegal-type-mapping]: Illegal type mapping. Expected a Tuple[Regexp,String] on the left side, got A Type Mapping
