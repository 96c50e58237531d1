class ntp (Array[String] $servers = []) {
  $driftfile = '/var/lib/ntp/drift'
}

class ntp::monitor {
  notice($ntp::server)
  #      ^ error[unknown-variable]: Unknown variable: 'ntp::server'.
  notice("drift file: ${ntp::drift_file}")
  #                     ^ error[unknown-variable]: Unknown variable: 'ntp::drift_file'.
}
