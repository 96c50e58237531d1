# @summary Structured facts, and custom facts.
class demo {
  if $facts['os']['family'] == 'Debian' {
    notice("${facts['networking']['fqdn']} on ${facts['networking']['interfaces']['eth0']['ip']}")
  }
  $role = $facts['role']
}
