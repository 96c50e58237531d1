# @summary Legacy facts.
class demo {
  if $facts['os']['family'] == 'Debian' {
#    ^ warning[legacy-facts]: legacy fact 'osfamily'
    notice("${facts['networking']['fqdn']} on ${facts['networking']['interfaces']['eth0']['ip']}")
#             ^ warning[legacy-facts]: legacy fact 'fqdn'
#                          ^ warning[legacy-facts]: legacy fact 'ipaddress_eth0'
  }
  $mb = $::memorysize_mb
#       ^ warning[legacy-facts]: legacy fact 'memorysize_mb'
  $release = $facts['os']['release']['full']
#            ^ warning[legacy-facts]: legacy fact 'operatingsystemrelease'
}

# Without braces in a string, the fix adds them so the string still reads the fact.
notice("running on ${facts['os']['family']}")
#                  ^ warning[legacy-facts]: legacy fact 'osfamily'
