file { '/etc/motd': ensure => '/etc/issue' }
#                             ^ warning[ensure-not-symlink-target]: symlink target specified in ensure attr
