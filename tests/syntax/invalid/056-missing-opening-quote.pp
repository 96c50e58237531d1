package { 'openssh-server':
  ensure => latest',
}
