# Defaults that match, and defaults pupcheck cannot judge from this file alone.
class ntp (
  Array[String]             $servers = ['pool.ntp.org'],
  Optional[Integer]         $port    = undef,
  Enum['present', 'absent'] $ensure  = 'present',
  Integer[1, 65535]         $max     = 65535,
  Hash[String, Integer]     $limits  = { 'files' => 1024 },
  Stdlib::Port              $other   = 'not judged: the alias is in another module',
  String                    $fqdn    = $facts['networking']['fqdn'],
  String                    $name2   = lookup('ntp::name'),
  Integer                   $derived = $port,
  Variant[String, Integer]  $either  = 1,
  Numeric                   $ratio   = 1.5,
  Boolean                   $flag    = 'yes' == 'YES',
) { }

# Earlier parameters whose types may match.
class ntp::derived (Variant[String, Integer] $p = 1, Integer $q = $p, Optional[Integer] $r = undef, Integer $s = $r) { }
