notify { 'fqdn':
  message => "Host is ${facts['networking']['fqdn']",
}
