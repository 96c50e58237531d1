define demo::pool (String $pool_tag = 'x') { }
class demo (String $log_level = 'info') { }
