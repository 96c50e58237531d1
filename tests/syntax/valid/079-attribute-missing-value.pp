file { '/etc/sudoers.d/deploy':
  ensure => file,
  mode   => '0440',
}
