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

# Parameters whose types may hold a matching value, or that a lambda hides.
class ntp::wrapper (
  Variant[String, Array[String]] $servers,
  Optional[Array[String]]        $more = undef,
  String                         $server = 'pool.ntp.org',
) {
  class { 'ntp': servers => $servers }
  class { 'ntp': servers => $more }
  [['a']].each |$server| {
    class { 'ntp': servers => $server }
  }
}

# A variable set differently in branches pupcheck cannot decide is unknown after them;
# one whose branch is decided is known.
class ntp::branches (Boolean $flag) {
  if $flag { $a = 'x' } else { $a = ['x'] }
  class { 'ntp': servers => $a }
  if true { $b = ['y'] } else { $b = 'y' }
  class { 'ntp': servers => $b }
}

# Match variables set by an `if` condition's match hold its groups in the body (strings).
class ntp::matched (String $pool) {
  if $pool =~ /^(\w+)\.pool$/ {
    class { 'ntp': servers => [$1] }
  }
}
