class profile::base {
  package { 'ntp':
    ensure => installed,
  }
}
