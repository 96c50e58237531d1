file '/tmp/marker':
  ensure => file,
}
