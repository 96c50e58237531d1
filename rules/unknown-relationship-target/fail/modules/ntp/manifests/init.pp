class ntp {
  include ntp::service
  file { '/etc/ntp.conf': notify => Class['ntp::sevice'] }
  #                                 ^ error[unknown-relationship-target]: Could not find resource 'Class[Ntp::Sevice]' in parameter 'notify'
  package { 'ntp': ensure => installed }
  Package['ntp'] -> Class['ntp::servce']
  #                 ^ error[unknown-relationship-target]: Could not find resource 'Class[Ntp::Servce]' for relationship
}
