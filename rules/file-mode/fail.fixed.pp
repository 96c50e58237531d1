file { '/etc/motd':
  ensure => file,
  mode   => '0644',
#           ^^^^^ warning[file-mode]: mode should be represented as a 4 digit octal value or symbolic mode
}
concat { '/etc/hosts':
  mode => 'rwx',
#         ^^^^^ warning[file-mode]: mode should be represented as a 4 digit octal value or symbolic mode
}
