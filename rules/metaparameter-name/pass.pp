define demo::pool (String $pool_tag = 'x') { }
