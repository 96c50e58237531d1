$page = 'motd'
file { "/etc/${page}": ensure => file }
notice(File["/etc/${page}"])
