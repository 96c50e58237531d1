notify { 'x':
  message => "value: ${x}",
}
