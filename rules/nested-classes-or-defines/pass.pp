class demo {
  class { 'demo::config': }
}
