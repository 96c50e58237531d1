# @summary Legacy facts.
class demo {
  if $facts['osfamily'] == 'Debian' {
#    ^ warning[legacy-facts]: legacy fact
    notice("${::fqdn} on ${::ipaddress_eth0}")
#             ^ warning[legacy-facts]: legacy fact
#                          ^ warning[legacy-facts]: legacy fact
  }
  $mb = $::memorysize_mb
#       ^ warning[legacy-facts]: legacy fact
}

# Without braces in a string, the fix adds them so the string still reads the fact.
notice("running on $::osfamily")
#                  ^ warning[legacy-facts]: legacy fact
