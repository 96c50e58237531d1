# @summary NTP.
class ntp { }
