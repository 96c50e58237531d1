class profile::tools {
  package { 'curl': ensure => installed }
  package { 'curl': ensure => latest }
  #         ^ error[duplicate-declaration]: Duplicate declaration: Package[curl] is already declared
}
define profile::conf {
  file { '/etc/profile.conf': ensure => file }
  #      ^ error[duplicate-declaration]: Duplicate declaration: File[/etc/profile.conf] is already declared
}
class profile::confs {
  profile::conf { ['a', 'b']: }
}
