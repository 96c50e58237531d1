file { '/etc/motd':
  source => 'puppet:///demo/motd',
#           ^ warning[puppet-url-without-modules]: puppet:// URL without modules/ found
}
