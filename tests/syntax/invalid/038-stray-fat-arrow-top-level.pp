$ntp_servers => ['0.pool.ntp.org', '1.pool.ntp.org']
class { 'ntp': servers => $ntp_servers }
