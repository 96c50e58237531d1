class {
  package { 'ntp': ensure => installed }
}
