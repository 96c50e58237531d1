# @summary Installs the demo package.
class demo::install {
  package { 'demo':
    ensure => installed,
  }
}
