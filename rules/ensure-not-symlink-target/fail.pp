file { '/etc/motd': ensure => '/etc/issue' }
#                             ^ warning[ensure-not-symlink-target]: symlink target specified in ensure attr

file { '/etc/c':
  ensure => '/etc/d',
#           ^^^^^^^^ warning[ensure-not-symlink-target]: symlink target specified in ensure attr
  target => '/etc/e',
}
