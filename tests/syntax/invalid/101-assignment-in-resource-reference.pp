$title = 'motd'
file { "/etc/${title}": ensure => file }
notice(File[$path = "/etc/${title}"])
