package { 'nginx':
  ensure => 1.2.3,
}
