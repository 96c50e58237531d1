# @summary NTP.
class ntp {
  include stdlib
  #       ^ warning[undeclared-dependency]: module 'ntp' uses class 'stdlib' of module 'stdlib', which its metadata.json does not list as a dependency
}
