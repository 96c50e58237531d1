class demo (Integer $Port = 80) { }
#                   ^ error[illegal-parameter-name]: Illegal parameter name. The given name 'Port' does not conform to the naming rule /^[a-z_]\w*$/
