if $facts['os']['family'] == 'RedHat' {
  include profile::yum
} else {
  include profile::apt
}
