$settings = {
  'port'    => 8080,
  'workers' => 4,
file { '/etc/app.json':
  content => to_json($settings),
}
