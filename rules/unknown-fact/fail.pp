# The message of the day names the OS family.
$family = $facts['os']['famliy']
#                      ^ warning[unknown-fact]: Facter's 'os' has no key 'famliy' (did you mean 'family'?)
notice($family)
