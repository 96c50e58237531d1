class demo::config inherits apache::params { }
#                           ^ warning[inherits-across-namespaces]: class inherits across module namespaces
