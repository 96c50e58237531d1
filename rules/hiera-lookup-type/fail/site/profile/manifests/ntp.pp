# @summary NTP for every node.
class profile::ntp {
  $servers = lookup('profile::ntp::servers', Array[String])
  #                 ^ error[hiera-lookup-type]: Found value has wrong type, expects an Array value, got String
  notice($servers)
}
