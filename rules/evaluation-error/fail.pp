# Arithmetic on a string that is not a number.
$base = 8000
$port = $base + 'eighty'
#       ^ error[evaluation-error]: The value 'eighty' cannot be converted to Numeric.

# A variable assigned twice in one scope.
$mode = '0644'
$mode = '0600'
# <- error[evaluation-error]: Cannot reassign variable '$mode'
