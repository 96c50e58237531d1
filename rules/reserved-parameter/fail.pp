define demo::site (String $title) { }
#                         ^ error[reserved-parameter]: The parameter $title redefines a built in parameter in the defined type 'demo::site'
