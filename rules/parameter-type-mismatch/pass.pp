# Values that match, and values pupcheck cannot know from the code.
class ntp (
  Array[String]             $servers = [],
  Enum['present', 'absent'] $ensure  = 'present',
  Integer                   $port    = 123,
) { }

class { 'ntp':
  servers => ['pool.ntp.org'],
  ensure  => $facts['ntp_ensure'],
  port    => lookup('ntp::port'),
}

# A class pupcheck has not read is not judged.
class { 'elsewhere': servers => 42 }
