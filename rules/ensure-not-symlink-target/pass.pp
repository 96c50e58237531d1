file { '/etc/motd': ensure => link, target => '/etc/issue' }
