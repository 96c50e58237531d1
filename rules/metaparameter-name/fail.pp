define demo::pool (String $tag = 'x') { }
#                         ^ warning[metaparameter-name]: tag is a metaparam; this value will inherit to all contained resources in the demo::pool definition
