class demo (String $site, Integer $port = 1) { }
