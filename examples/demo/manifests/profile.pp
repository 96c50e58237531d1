# @summary Runs the demo service on the web port.
class demo::profile {
  class { 'demo':
    port       => '80',
    motd_lines => 'Hello from the demo',
  }
}
