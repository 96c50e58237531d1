service { 'ntpd':
  ensure  => running,
  require => Package['ntp',
}
