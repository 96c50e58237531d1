# One value a variable.
$mode = '0644'
$strict_mode = '0600'

# A variable set on one path only may be set on another.
if $facts['kernel'] == 'Linux' {
  $shell = '/bin/bash'
}
if $facts['kernel'] != 'Linux' {
  $shell = '/bin/sh'
}

# A block that calls fail is there to stop the compile.
$port = $facts['processors']['count'] * 20000
if $port > 65535 {
  fail('The port ' + 'is too large')
}
