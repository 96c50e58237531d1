file { '/etc/motd':
  ensur   => file,
# ^ error[unknown-attribute]: no parameter named 'ensur' on File[/etc/motd]
  content => 'Managed by Puppet',
}

package { 'ntp':
  ensure  => installed,
  version => '4.2',
# ^ error[unknown-attribute]: no parameter named 'version' on Package[ntp]
}

service { $service_name:
  enabled => true,
# ^ error[unknown-attribute]: no parameter named 'enabled' on Service
}
