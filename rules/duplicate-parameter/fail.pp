class demo (String $site, Integer $site = 1) { }
#                                 ^ error[duplicate-parameter]: The parameter 'site' is declared more than once in the parameter list
