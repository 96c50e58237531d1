file { '/tmp/x':
  * => $defaults + $overrides,
}
