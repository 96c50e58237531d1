$port = '8080'
$checked = assert_type(Integer, $port)
#          ^ error[assert-type]: Error while evaluating a Function Call, assert_type(): expects an Integer value, got String

$workers = assert_type(Integer[1, 4], 8)
#          ^ error[assert-type]: Error while evaluating a Function Call, assert_type(): expects an Integer[1, 4] value, got Integer[8, 8]

class web (String $listen) {
  $address = assert_type(Integer, $listen)
  #          ^ error[assert-type]: Error while evaluating a Function Call, assert_type(): expects an Integer value, got String
}
