function ntp::port(String $server) >> Integer {
  123
}

# Some values of the parameter's type are Integers.
function ntp::weight(Variant[String, Integer] $level) >> Integer {
  $level
}

# The end may not be reached: Puppet does not check a value given to return.
function ntp::name(Boolean $short) >> String {
  if $short {
    return('ntp')
  }
  'ntpd'
}
