file { '/etc/motd':
  mode => '0644',
}
file { '/etc/issue':
  mode => 'u=rw,go=r',
}
file { '/etc/other':
  mode => $mode,
}
