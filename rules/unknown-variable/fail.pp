class ntp (Array[String] $servers = []) {
  $driftfile = '/var/lib/ntp/drift'
}

class ntp::monitor {
  notice($ntp::server)
  #      ^ warning[unknown-variable]: Unknown variable: 'ntp::server'.
  notice("drift file: ${ntp::drift_file}")
  #                     ^ warning[unknown-variable]: Unknown variable: 'ntp::drift_file'.
}
