# @summary The editor every node gets.
class profile::editor {
  package { 'vim':
    ensure => installed,
  }
  file_line { 'editor':
    path => '/etc/environment',
    line => 'EDITOR=vim',
  }
}
