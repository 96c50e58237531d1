file { '/etc/motd':
  source => 'puppet:///modules/demo/motd',
}
