[1, 2].each |$0| { }
#            ^ error[numeric-parameter-name]: The numeric parameter name '$0' cannot be used (clashes with numeric match result variables)
