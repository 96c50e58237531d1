file { '/etc/motd':
  ensure  => file,
  content => 'hi',
}
