if $facts['os']['family'] == 'RedHat' {
  $pkg = 'httpd'
} else {
  $pkg = 'apache2'
} elsif $facts['os']['family'] == 'Suse' {
  $pkg = 'apache2'
}
