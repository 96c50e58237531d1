class ntp (Array[String] $servers = []) {
  if $facts['os']['family'] == 'Debian' {
    $driftfile = '/var/lib/ntp/drift'
  }
}

class ntp::monitor {
  notice($ntp::servers)
  notice($ntp::driftfile)
  notice($ntp::title)
  # A class pupcheck has not read may set anything.
  notice($chrony::servers)
}
