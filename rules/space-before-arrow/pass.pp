# @summary One space before each arrow; bodies over several lines are aligned instead.
class demo {
  file { '/etc/motd':
    ensure => file,
  }
  file { '/etc/issue': ensure => file, mode => '0644' }
  file { '/etc/hosts':
    ensure => file,
    mode   => '0644',
  }
}
