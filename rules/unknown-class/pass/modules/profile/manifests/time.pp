# Classes the module has, and classes of modules pupcheck has not read.
class profile::time {
  include ntp
  include ntp::config
  contain 'ntp::config'
  include chrony::server
  class { 'elsewhere': }
}
