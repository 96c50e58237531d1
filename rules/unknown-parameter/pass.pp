# Parameters, metaparameters, name and title; classes pupcheck has not read.
class ntp (Array[String] $servers = []) { }

class { 'ntp':
  servers => ['pool.ntp.org'],
  require => Package['ntp'],
  stage   => 'main',
}

define ntp::peer ($port = 123) { }

ntp::peer { 'backup':
  port   => 124,
  name   => 'backup',
  notify => Service['ntp'],
}

class { 'elsewhere': anything => 1 }
