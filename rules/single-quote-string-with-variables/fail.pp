exec { 'greet':
  command => 'echo ${name}',
#            ^ warning[single-quote-string-with-variables]: single quoted string containing a variable found
}
