include ntp
include ssh
