# @summary Legacy facts.
class demo {
  if $facts['os']['family'] == 'Debian' {
#    ^ warning[legacy-facts]: legacy fact
    notice("${facts['networking']['fqdn']} on ${facts['networking']['interfaces']['eth0']['ip']}")
#             ^ warning[legacy-facts]: legacy fact
#                          ^ warning[legacy-facts]: legacy fact
  }
  $mb = $::memorysize_mb
#       ^ warning[legacy-facts]: legacy fact
}

# Without braces in a string, the fix adds them so the string still reads the fact.
notice("running on ${facts['os']['family']}")
#                  ^ warning[legacy-facts]: legacy fact
