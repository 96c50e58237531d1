$trusted = {}
# <- error[reserved-variable-assignment]: Attempt to assign to a reserved variable name: '$trusted'
