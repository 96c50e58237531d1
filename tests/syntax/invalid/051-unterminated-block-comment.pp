/* Temporarily disabled
notify { 'debug': }
include ntp
