include ntp
include ssh)
