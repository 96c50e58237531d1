file { '/etc/motd':
  ensure  => file,
  mode    => '0644',
  content => { 'a' => 1, 'bb' => 2 },
}
