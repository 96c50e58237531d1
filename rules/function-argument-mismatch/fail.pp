function ntp::port(Integer $p, String $proto = 'udp') >> Integer { $p }

$a = ntp::port('123')
#              ^ error[function-argument-mismatch]: 'ntp::port' parameter 'p' expects an Integer value, got String
$b = ntp::port(123, 'udp', 'extra')
#    ^ error[function-argument-mismatch]: 'ntp::port' expects between 1 and 2 arguments, got 3
$c = ntp::port()
#    ^ error[function-argument-mismatch]: 'ntp::port' expects between 1 and 2 arguments, got none
$d = 123.ntp::port(17)
#                  ^ error[function-argument-mismatch]: 'ntp::port' parameter 'proto' expects a String value, got Integer

# A parameter of the enclosing class, known by its type.
class ntp::client (String $server_port = '123') {
  $port = ntp::port($server_port)
  #                 ^ error[function-argument-mismatch]: 'ntp::port' parameter 'p' expects an Integer value, got String
}

file { '/etc/ntp.port':
  content => String(ntp::port('123')),
  #                           ^ error[function-argument-mismatch]: 'ntp::port' parameter 'p' expects an Integer value, got String
}
