define demo::pool (String $pool_tag = 'x') { }
class demo (String $log_level = 'info') { }
# Application orchestration's `export` and `consume` are no metaparameters in Puppet 7.
define demo::object (Array[String] $export = [], String $consume = '') { }
