if $manage_service {
  service { 'ntpd': ensure => running }
} else {
  notice('not managing ntpd')
} else {
  notice('unreachable')
}
