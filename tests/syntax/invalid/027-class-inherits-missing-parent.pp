class ntp::config inherits {
  file { '/etc/ntp.conf': ensure => file }
}
