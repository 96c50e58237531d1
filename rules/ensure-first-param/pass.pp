file { '/etc/motd':
  ensure => file,
  mode   => '0644',
}
class { 'demo':
  port   => 80,
  ensure => present,
}
