file { '/etc/motd':
  ensure  => file,
  content => 'hello',
}
$packages = ['curl', 'vim']
$settings = {
  'port' => 8080,
}
File {
  owner => 'root',
}
