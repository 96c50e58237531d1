$path = '/etc/motd'
#       ^ warning[double-quoted-strings]: double quoted string containing no variables
