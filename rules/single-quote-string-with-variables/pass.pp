exec { 'greet':
  command => "echo ${name}",
}
$text = inline_epp('Hello <%= ${name} %>')
