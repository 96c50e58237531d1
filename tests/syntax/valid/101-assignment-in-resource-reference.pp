$title = 'motd'
file { "/etc/${title}": ensure => file }
notice(File["/etc/${title}"])
