define demo::pool (String $tag = 'x') { }
#                         ^ warning[metaparameter-name]: tag is a metaparam; this value will inherit to all contained resources in the demo::pool definition
class demo (String $loglevel = 'info') { }
#                  ^ warning[metaparameter-name]: loglevel is a metaparam; this value will inherit to all contained resources in the demo definition
define demo::check (Boolean $noop) { }
#                           ^ error[metaparameter-name]: noop is a metaparameter; please choose another parameter name in the demo::check definition
