# @summary Two spaces a level.
class demo {
  file { '/etc/motd':
    ensure  => file,
    content => @(EOT),
      Hello
      | EOT
  }
  $x =
    'value'
  $list = [
    'a',
    'b',
  ]
  if $x {
    notice($x)
  }
}
