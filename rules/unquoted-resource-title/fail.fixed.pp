package { 'vim': ensure => installed }
#         ^ warning[unquoted-resource-title]: unquoted resource title
