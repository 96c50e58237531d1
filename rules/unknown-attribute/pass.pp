# Attributes, metaparameters and `name`; types pupcheck has no table for.
file { 'motd':
  ensure  => file,
  name    => '/etc/motd',
  content => 'Managed by Puppet',
  require => Package['ntp'],
}

package { 'ntp':
  ensure          => installed,
  install_options => ['--no-recommends'],
  tag             => 'ntp',
}

exec { 'refresh':
  command     => '/usr/bin/true',
  refreshonly => true,
  subscribe   => File['motd'],
}

concat { '/etc/ntp.conf': anything => 'a module type, not judged' }
