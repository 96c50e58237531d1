class ntp (Array[String] $servers = []) {
}
# Declared resource-like first, included after: one declaration.
class profile::time {
  class { 'ntp': servers => ['ntp1.example.com'] }
  include ntp
}
# Another class including it is compiled on its own.
class profile::clock {
  include ntp
}
