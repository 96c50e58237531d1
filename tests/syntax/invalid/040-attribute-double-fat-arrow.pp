service { 'sshd':
  ensure => => running,
  enable => true,
}
