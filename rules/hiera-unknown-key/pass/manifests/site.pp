$pool = lookup('ntp::pool', String, 'first', 'pool')
include ntp
