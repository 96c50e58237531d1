file { '/etc/motd':
  ensure => file,
  mode   => '0644',
# ^ warning[ensure-first-param]: ensure found on line but it's not the first attribute
}
