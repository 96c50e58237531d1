$myVar = 1
# <- warning[variable-is-lowercase]: variable contains an uppercase letter
