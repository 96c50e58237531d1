# Arithmetic on a string that is not a number.
$base = 8000
$port = $base + 'eighty'
#       ^ error[operator-type]: The value 'eighty' cannot be converted to Numeric.

# A comparison Puppet cannot make.
$limit = 10
$small = $limit < [1]
#        ^ error[operator-type]: Comparison of: Integer < Array, is not possible. Caused by 'A Numeric is not comparable to non Numeric'.

# A match needs a string on its left.
$answer = 42 =~ /^4/
#         ^ error[operator-type]: Left match operand must result in a String value. Got an Integer.
