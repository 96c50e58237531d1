case $facts['os']['family'] {
# <- warning[case-without-default]: case statement without a default case
  'Debian': { include apt }
  'RedHat': { include yum }
}
