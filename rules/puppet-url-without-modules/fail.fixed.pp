file { '/etc/motd':
  source => 'puppet:///modules/demo/motd',
#           ^ warning[puppet-url-without-modules]: puppet:// URL without modules/ found
}
