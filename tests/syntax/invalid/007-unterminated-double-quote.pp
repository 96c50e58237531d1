notify { 'greeting':
  message => "Hello, ${facts['networking']['hostname']},
}
