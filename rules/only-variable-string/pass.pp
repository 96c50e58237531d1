file { '/tmp/x':
  owner => $owner,
  group => "${group}-admins",
}
$h = { "${key}" => 1 }
