file { '/tmp/x':
  ensure => file,
  ensure => directory,
# ^ error[duplicate-resource-attribute]: The attribute 'ensure' has already been set
}
