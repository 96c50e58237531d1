class my-module::config { }
#     ^ error[illegal-definition-name]: Unacceptable name. The name 'my-module::config' is unacceptable as the name of a Host Class Definition
