$x = 'oops'
notice('x')
