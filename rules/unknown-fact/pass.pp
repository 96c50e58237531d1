# The message of the day names the OS family.
$family = $facts['os']['family']
notice($family)
