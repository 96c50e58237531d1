class profile::time {
  include ntp::confg
  #       ^ error[unknown-class]: Could not find class ::ntp::confg
  class { 'ntp::service': }
  #       ^ error[unknown-class]: Could not find class ::ntp::service
}
