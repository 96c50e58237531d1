$motd = @("EOT")
  Welcome to ${facts['networking']['fqdn']}
  Managed by Puppet
  | EOT
file { '/etc/motd':
  content => $motd,
}
