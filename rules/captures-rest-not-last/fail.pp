$list.each |String *$parts, String $separator| { }
#                   ^ error[captures-rest-not-last]: Parameter $parts is not last, and has 'captures rest'
