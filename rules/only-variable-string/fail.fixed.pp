file { '/tmp/x':
  owner => $owner,
#             ^ warning[only-variable-string]: string containing only a variable
}
