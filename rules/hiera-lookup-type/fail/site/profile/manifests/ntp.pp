# @summary NTP for every node.
class profile::ntp {
  $servers = lookup('profile::ntp::servers', Array[String])
  #                 ^ error[hiera-lookup-type]: Found value has wrong type, expects an Array value, got String
  $iburst = lookup('profile::ntp::iburst', Boolean, 'first', 'yes')
  #                                                          ^ error[hiera-lookup-type]: Default value has wrong type, expects a Boolean value, got String
  notice($servers, $iburst)
}
