file { '/etc/issue:
  ensure => file,
  owner  => 'root',
}
