case $facts['os']['family'] {
  'Debian': { include apt }
  default:  { fail("unsupported: ${facts['os']['family']}") }
}
