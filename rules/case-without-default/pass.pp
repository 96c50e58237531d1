case $facts['os']['family'] {
  'Debian': { include apt }
  default:  { fail("unsupported: ${facts['os']['family']}") }
}
case [versioncmp($facts['os']['release']['full'], '12')] {
  [-1]:      { notice('older than 12') }
  [default]: { notice('12 or newer') }
}
