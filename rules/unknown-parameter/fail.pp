class ntp (Array[String] $servers = []) { }

class { 'ntp':
  server => ['pool.ntp.org'],
# ^ error[unknown-parameter]: Class[Ntp]: has no parameter named 'server'
}

define ntp::peer ($port = 123) { }

ntp::peer { 'backup':
  prot => 124,
# ^ error[unknown-parameter]: Ntp::Peer[backup]: has no parameter named 'prot'
}
