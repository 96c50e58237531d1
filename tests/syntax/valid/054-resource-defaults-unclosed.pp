File {
  owner => 'root',
  mode  => '0644',
}
file { '/etc/hosts': ensure => file }
