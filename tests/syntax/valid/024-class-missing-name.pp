class ntp_install {
  package { 'ntp': ensure => installed }
}
