class demo (String $site, Integer $port = 1) { }

# A lambda may repeat a parameter name (Puppet checks only definitions' lists).
[1].each |$x, $x| { notice($x) }
