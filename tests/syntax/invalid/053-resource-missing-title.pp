file { :
  ensure => directory,
}
