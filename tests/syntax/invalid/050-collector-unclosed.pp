@user { 'alice': ensure => present, groups => ['admin'] }
User <| groups == 'admin' |
notice('done')
