$mode = $secure ? { true => '0600', default => '0644' }
file { '/tmp/x':
  mode => $mode,
}
