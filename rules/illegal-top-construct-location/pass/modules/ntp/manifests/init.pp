# @summary Everything inside the class.
class ntp {
  file { '/etc/ntp.conf': ensure => file }
}
