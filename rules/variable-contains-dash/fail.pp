$label = "$app-name"
#         ^ warning[variable-contains-dash]: variable contains a dash
