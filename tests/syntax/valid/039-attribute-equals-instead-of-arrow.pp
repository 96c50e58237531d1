user { 'deploy':
  ensure => present,
  shell  => '/bin/bash',
}
