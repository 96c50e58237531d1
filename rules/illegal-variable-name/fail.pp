$Port = 80
# <- error[illegal-variable-name]: Illegal variable name, The given name 'Port' does not conform to the naming rule /^((::)?[a-z]\w*)*((::)?[a-z_]\w*)$/
