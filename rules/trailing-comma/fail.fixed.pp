file { '/etc/motd':
  ensure  => file,
  content => 'hello',
#                   ^ warning[trailing-comma]: missing trailing comma after last element
}
$packages = [
  'curl',
  'vim',
#      ^ warning[trailing-comma]: missing trailing comma after last element
]
$settings = {
  'port' => 8080,
#               ^ warning[trailing-comma]: missing trailing comma after last element
}
