service { 'ntp':
  ensure => 'running',
  enable => true,
}
$debug = false
$label = 'true story'
