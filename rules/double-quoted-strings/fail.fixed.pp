$path = '/etc/motd'
#       ^ warning[double-quoted-strings]: double quoted string containing no variables

$check = "\u2713"
#        ^^^^^^^^ warning[double-quoted-strings]: double quoted string containing no variables
$return = "a\r"
#         ^^^^^ warning[double-quoted-strings]: double quoted string containing no variables
