class ntp (
  Array[String]             $servers = [],
  Enum['present', 'absent'] $ensure  = 'present',
  Hash[String, Integer]     $limits  = {},
) { }

class { 'ntp':
  servers => 'pool.ntp.org',
  #          ^ error[parameter-type-mismatch]: Class[Ntp]: parameter 'servers' expects an Array value, got String
  ensure  => 'installed',
  #          ^ error[parameter-type-mismatch]: Class[Ntp]: parameter 'ensure' expects a match for Enum['absent', 'present'], got 'installed'
  limits  => { 'files' => '1024' },
  #          ^ error[parameter-type-mismatch]: Class[Ntp]: parameter 'limits' entry 'files' expects an Integer value, got String
}

define ntp::peer (Integer[1, 65535] $port = 123) { }

ntp::peer { 'backup':
  port => 65536,
  #       ^ error[parameter-type-mismatch]: Ntp::Peer[backup]: parameter 'port' expects an Integer[1, 65535] value, got Integer[65536, 65536]
}

# A parameter known only by its type: no String is an Array.
class ntp::wrapper (String $server = 'pool.ntp.org') {
  class { 'ntp': servers => $server }
  #                         ^ error[parameter-type-mismatch]: Class[Ntp]: parameter 'servers' expects an Array value, got String
}

# What the body fixes before the declaration, in evaluation order.
class ntp::local {
  $pool = 'pool.ntp.org'
  $servers = "0.${pool}"
  class { 'ntp': servers => $servers }
  #                         ^ error[parameter-type-mismatch]: Class[Ntp]: parameter 'servers' expects an Array value, got String
}
