# @summary Defaults from the params class.
class ntp (
  Array[String] $servers = $ntp::params::servers,
) inherits ntp::params {
#          ^ warning[class-inherits-from-params-class]: class inheriting from params class
}
