file { '/tmp/x':
  mode => $secure ? { true => '0600', default => '0644' },
#      ^ warning[selector-inside-resource]: selector inside resource block
}
