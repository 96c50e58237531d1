class demo (Integer $port = 80) { }
