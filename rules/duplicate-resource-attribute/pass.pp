file { '/tmp/x':
  ensure => directory,
  mode   => '0755',
}
