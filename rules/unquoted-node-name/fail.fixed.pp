node 'web1' { }
#    ^ warning[unquoted-node-name]: unquoted node name found
