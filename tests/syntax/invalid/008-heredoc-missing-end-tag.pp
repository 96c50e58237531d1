$motd = @(EOT)
  Welcome to ${facts['networking']['fqdn']}
  Managed by Puppet
file { '/etc/motd':
  content => $motd,
}
