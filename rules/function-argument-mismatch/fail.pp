function ntp::port(Integer $p, String $proto = 'udp') >> Integer { $p }

$a = ntp::port('123')
#              ^ error[function-argument-mismatch]: Error while evaluating a Function Call, 'ntp::port' parameter 'p' expects an Integer value, got String
$b = ntp::port(123, 'udp', 'extra')
#    ^ error[function-argument-mismatch]: Error while evaluating a Function Call, 'ntp::port' expects between 1 and 2 arguments, got 3
$c = ntp::port()
#    ^ error[function-argument-mismatch]: Error while evaluating a Function Call, 'ntp::port' expects between 1 and 2 arguments, got none
$d = 123.ntp::port(17)
#                  ^ error[function-argument-mismatch]: Error while evaluating a Method call, 'ntp::port' parameter 'proto' expects a String value, got Integer

# A parameter of the enclosing class, known by its type.
class ntp::client (String $server_port = '123') {
  $port = ntp::port($server_port)
  #                 ^ error[function-argument-mismatch]: Error while evaluating a Function Call, 'ntp::port' parameter 'p' expects an Integer value, got String
}

file { '/etc/ntp.port':
  content => String(ntp::port('123')),
  #                           ^ error[function-argument-mismatch]: Error while evaluating a Function Call, 'ntp::port' parameter 'p' expects an Integer value, got String
}

# Puppet's own functions, judged against each of their signatures.
$parts = split(1, ',')
#        ^ error[function-argument-mismatch]: Error while evaluating a Function Call, 'split' parameter 'str' expects a String value, got Integer
$list = [1, 2].join(3)
#       ^ error[function-argument-mismatch]: Error while evaluating a Method call, 'join' parameter 'delimiter' expects a String value, got Integer
$minute = fqdn_rand()
#         ^ error[function-argument-mismatch]: Error while evaluating a Function Call, fqdn_rand(): Wrong number of arguments given (0 for minimum 1)
[1, 2].each |$index, $value, $extra| { notice($value) }
# <- error[function-argument-mismatch]: Error while evaluating a Method call, 'each' block expects between 1 and 2 arguments, got 3
