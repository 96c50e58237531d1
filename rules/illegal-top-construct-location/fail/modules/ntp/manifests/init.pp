# @summary Code after the class.
class ntp { }
include ntp
# <- error[illegal-top-construct-location]: This Function Call is unacceptable as a top level construct in this location
file { '/etc/ntp.conf': ensure => file }
# <- error[illegal-top-construct-location]: This Resource Statement is unacceptable as a top level construct in this location
node default { }
# <- error[illegal-top-construct-location]: This Node Definition is unacceptable as a top level construct in this location
