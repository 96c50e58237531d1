file { '/etc/ssh/sshd_config': ensure => file }
File['/etc/ssh/sshd_config'] ~> Service['sshd']
