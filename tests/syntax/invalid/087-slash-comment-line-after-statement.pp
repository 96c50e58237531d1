notice('start')
// Managed by Puppet
notice('end')
