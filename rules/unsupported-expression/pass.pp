type Mymodule::Point = Object[{ attributes => { x => Integer, y => Integer } }]
type Runtime['ruby', [/^Puppet::(\w+)$/, 'Mymodule::\1']] = [/^Mymodule::(\w+)$/, 'Puppet::\1']
