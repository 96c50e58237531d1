file { '/etc/motd': ensure => symlink,
 target => '/etc/issue' }
#                             ^ warning[ensure-not-symlink-target]: symlink target specified in ensure attr
