node 'base' { }
node 'web1' inherits 'base' { }
#                    ^ error[node-inheritance]: Node inheritance is not supported in Puppet >= 4.0.0. See http://links.puppet.com/puppet-node-inheritance-deprecation
