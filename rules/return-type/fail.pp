# The body ends with a string; the function promises an Integer.
function ntp::port(String $server) >> Integer {
  "${server}:123"
# ^ error[return-type]: Error while evaluating a Function Call, value returned from ntp::port has wrong type, expects an Integer value, got String
}

# A value the parameters' types bound: every String is refused.
function ntp::weight(String $level) >> Integer {
  $level
# ^ error[return-type]: Error while evaluating a Function Call, value returned from ntp::weight has wrong type, expects an Integer value, got String
}
