$first = 'x'
