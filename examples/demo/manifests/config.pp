# @summary Writes the demo configuration.
class demo::config {
  file { '/etc/demo.conf':
    ensure  => file,
    content => "port = ${demo::port}\n"
    mode    => '0644',
  }

  file { '/etc/motd':
    ensure  => file,
    content => epp('demo/motd.epp', { 'lines' => $demo::motd_lines }),
  }
}
