package { 'vim': ensure => installed }
