class profile::web {
  service { 'nginx':
    ensure => running,
  }
}
