$text = '80 80'
$port = Integer($text)
#       ^ error[conversion]: Error while evaluating a Function Call, 'new' The string '80 80' cannot be converted to Integer
$flag = Boolean('maybe')
#       ^ error[conversion]: Error while evaluating a Function Call, 'new_boolean' The string 'maybe' cannot be converted to Boolean
$version = SemVer('1.x')
#          ^ error[conversion]: Error while evaluating a Function Call, 'new_Version' The string '1.x' cannot be converted to a SemVer
