file { '/etc/motd':
  ensure  => file
  content => 'hi',
# ^ error[syntax-error]: Syntax error at 'content'
}
