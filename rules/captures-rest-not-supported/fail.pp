define demo::thing (String *$rest) { }
#                           ^ error[captures-rest-not-supported]: Parameter $rest has 'captures rest' - not supported in a 'define' expression
