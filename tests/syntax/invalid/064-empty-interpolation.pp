notify { 'x':
  message => "value: ${}",
}
