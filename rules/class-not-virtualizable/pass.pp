class { 'ntp': }
