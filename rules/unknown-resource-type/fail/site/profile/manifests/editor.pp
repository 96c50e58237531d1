# @summary The editor every node gets.
class profile::editor {
  pakage { 'vim':
# ^ error[unknown-resource-type]: Unknown resource type: 'pakage'
    ensure => installed,
  }
  file_line { 'editor':
    path => '/etc/environment',
    line => 'EDITOR=vim',
  }
}
