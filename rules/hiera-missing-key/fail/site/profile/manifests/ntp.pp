# @summary NTP for every node.
class profile::ntp {
  $servers = lookup('profile::ntp::servers', Array[String])
  #                 ^ error[hiera-missing-key]: Function lookup() did not find a value for the name 'profile::ntp::servers'
  notice($servers)
}
