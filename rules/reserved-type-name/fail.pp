class string { }
#     ^ error[reserved-type-name]: The name: 'string' is already defined by Puppet and can not be used as the name of a Host Class Definition.
