service { 'ntp':
  ensure => 'running',
  enable => 'true',
#           ^ warning[quoted-booleans]: quoted boolean value found
}
$debug = "false"
#        ^ warning[quoted-booleans]: quoted boolean value found
