[$a, 'port'] = [1, 2]
#    ^ error[illegal-assignment]: Illegal attempt to assign to this expression. Not an assignable reference
