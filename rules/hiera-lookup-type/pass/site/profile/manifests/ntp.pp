# @summary NTP for every node.
class profile::ntp {
  $servers = lookup('profile::ntp::servers', Array[String])
  $pool = lookup('profile::ntp::pool', String, 'first', 'pool.ntp.org')
  notice($servers, $pool)
}
