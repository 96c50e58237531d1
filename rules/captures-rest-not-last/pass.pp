$list.each |String $separator, String *$parts| { }
