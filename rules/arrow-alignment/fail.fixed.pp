file { '/etc/motd':
  ensure => file,
  mode   => '0644',
#      ^ warning[arrow-alignment]: indentation of => is not properly aligned (expected in column 10, but found it in column 8)
}
