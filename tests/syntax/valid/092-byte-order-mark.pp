notice('hello')
