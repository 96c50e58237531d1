file { '/srv/data':
  ensure => directory,
}
