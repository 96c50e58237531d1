class ntp {
  include ntp::config
}
