$page = 'motd'
file { "/etc/${page}": ensure => file }
notice(File[$path = "/etc/${page}"])
