# @summary Legacy facts.
class demo {
  if $facts['osfamily'] == 'Debian' {
#    ^ warning[legacy-facts]: legacy fact 'osfamily'
    notice("${::fqdn} on ${::ipaddress_eth0}")
#             ^ warning[legacy-facts]: legacy fact 'fqdn'
#                          ^ warning[legacy-facts]: legacy fact 'ipaddress_eth0'
  }
  $mb = $::memorysize_mb
#       ^ warning[legacy-facts]: legacy fact 'memorysize_mb'
  $release = $facts[operatingsystemrelease]
#            ^ warning[legacy-facts]: legacy fact 'operatingsystemrelease'
}

# Without braces in a string, the fix adds them so the string still reads the fact.
notice("running on $::osfamily")
#                  ^ warning[legacy-facts]: legacy fact 'osfamily'
