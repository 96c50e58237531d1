# A numeric string takes part as its number.
$base = 8000
$port = $base + '80'

# Values the code does not fix are not judged.
$next = $facts['processors']['count'] + 1

# A variable set on one path only may be set on another.
if $facts['kernel'] == 'Linux' {
  $shell = '/bin/bash'
}
if $facts['kernel'] != 'Linux' {
  $shell = '/bin/sh'
}

# A block that calls fail is there to stop the compile.
if $port > 65535 {
  fail('The port ' + 'is too large')
}
