class ntp (Array[String] $servers = []) {
}
class profile::time {
  include ntp
  class { 'ntp': servers => ['ntp1.example.com'] }
  #       ^ error[duplicate-class-declaration]: Duplicate declaration: Class[Ntp] is already declared
}
