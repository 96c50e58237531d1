if $facts['os']['family'] == 'RedHat' {
  include profile::yum
} elsif {
  include profile::apt
}
