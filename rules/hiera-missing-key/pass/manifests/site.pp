include profile::ntp
