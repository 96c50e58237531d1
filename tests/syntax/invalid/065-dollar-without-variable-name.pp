$ = 'oops'
notice('x')
