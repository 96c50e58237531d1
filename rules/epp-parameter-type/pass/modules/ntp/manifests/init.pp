# @summary NTP
class ntp (Array[String] $servers = ['pool.ntp.org']) {
  file { '/etc/ntp.conf':
    content => epp('ntp/ntp.conf.epp', { 'servers' => ['pool.ntp.org'] }),
  }
  # undef leaves the default.
  file { '/etc/ntp.alt.conf':
    content => epp('ntp/ntp.conf.epp', { 'servers' => ['pool.ntp.org'], 'port' => undef }),
  }
  # Values the code does not fix are not judged.
  file { '/etc/ntp.site.conf':
    content => epp('ntp/ntp.conf.epp', { 'servers' => $servers }),
  }
}
