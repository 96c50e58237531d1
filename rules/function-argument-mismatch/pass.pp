# Matching calls, spread arguments, values pupcheck cannot know, functions it has not read.
function ntp::port(Integer $p, String $proto = 'udp') >> Integer { $p }
function ntp::all(String $first, *$rest) { $first }

$a = ntp::port(123)
$b = ntp::port(123, 'tcp')
$c = ntp::port(*$ports)
$d = ntp::port($facts['ntp_port'])
$e = ntp::all('a', 'b', 'c')
$f = elsewhere::port('not judged')
$g = 123.ntp::port

class ntp::client (Variant[String, Integer] $server_port = 123) {
  $port = ntp::port($server_port)
  [1].each |$server_port| { ntp::port($server_port) }
}

# Puppet's own functions called as one of their signatures takes them.
$parts = split('a,b', ',')
$by_regexp = split('a,b', /,/)
$line = sprintf('%s:%d', 'web', 80)
[1, 2].each |$value| { notice($value) }
$first = with(1, 2) |$a, $b| { $a }
