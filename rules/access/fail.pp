$ports = [80, 443]
$first = $ports['http']
#        ^ error[access]: The value 'http' cannot be converted to Numeric.
$pair = $ports[0, 1, 2]
#       ^ error[access]: Array supports [] with one or two arguments. Got 3

$count = 3
$digit = $count[0]
#        ^ error[access]: Operator '[]' is not applicable to an Integer.

$port_type = Integer['a']
#            ^ error[access]: Integer-Type [] requires all arguments to be integers (or default). Got String
