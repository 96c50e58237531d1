# @summary NTP.
class ntp {
  include stdlib
}
