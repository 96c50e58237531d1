$pattern = "^\d+$"
#            ^ warning[unrecognized-escape]: Unrecognized escape sequence '\d'
