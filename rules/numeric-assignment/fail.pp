$1 = 'x'
# <- error[numeric-assignment]: Illegal attempt to assign to the numeric match result variable '$1'. Numeric variables are not assignable
