class ntp::config inherits ntp {
  file { '/etc/ntp.conf': ensure => file }
}
