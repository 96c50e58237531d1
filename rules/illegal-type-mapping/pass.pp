type Runtime['ruby', 'My::Point'] = Mymodule::Point
type Runtime['ruby', [/^My::(\w+)$/, 'Your::\1']] = [/^Your::(\w+)$/, 'My::\1']
