if $facts['os']['family'] == 'RedHat' {
  $pkg = 'httpd'
} elsif $facts['os']['family'] == 'Suse' {
  $pkg = 'apache2'
} else {
  $pkg = 'apache2'
}
