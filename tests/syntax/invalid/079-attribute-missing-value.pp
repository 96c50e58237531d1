file { '/etc/sudoers.d/deploy':
  ensure =>,
  mode   => '0440',
}
