file { '/etc/motd':
  mode   => '0644',
  ensure => file,
# ^ warning[ensure-first-param]: ensure found on line but it's not the first attribute
}
