file { 'C:\Program Files\MyApp\':
  ensure => directory,
}
notify { 'done': }
