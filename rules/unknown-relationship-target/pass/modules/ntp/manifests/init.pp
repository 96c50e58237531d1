# Classes the module has, classes of modules pupcheck has not read, and an arrow whose
# other side is a collector (which may collect nothing).
class ntp {
  include ntp::service
  file { '/etc/ntp.conf': notify => Class['ntp::service'] }
  package { 'ntp': require => Class['chrony'] }
  Class['ntp::sevice'] -> Package <| tag == 'ntp-extras' |>
}
