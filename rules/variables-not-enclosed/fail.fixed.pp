$greeting = "hello ${name}"
#                  ^ warning[variables-not-enclosed]: variable not enclosed in {}
