# @summary Structured facts, and custom facts.
class demo {
  if $facts['os']['family'] == 'Debian' {
    notice("${facts['networking']['fqdn']} on ${facts['networking']['interfaces']['eth0']['ip']}")
  }
  $role = $facts['role']
}

# A variable this environment's own top-scope code sets is that variable, not a fact
# (Puppet 8 collects no legacy fact to collide with it).
$lsbdistcodename = 'bookworm'
notice($::lsbdistcodename)
