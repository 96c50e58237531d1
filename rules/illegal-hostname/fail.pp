node "web-${id}" { }
#           ^ error[illegal-hostname]: An interpolated expression is not allowed in a hostname of a node
