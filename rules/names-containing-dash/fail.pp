define my-module::thing { }
#      ^ warning[names-containing-dash]: defined type name containing a dash
