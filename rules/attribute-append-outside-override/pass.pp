file { '/tmp/x': require => Package['a'] }
File['/tmp/x'] { require +> Package['b'] }
