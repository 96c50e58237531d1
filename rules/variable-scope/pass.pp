# @summary Every variable is local, qualified or set by Puppet.
class demo (Integer $port = 80) {
  $url = "http://${facts['networking']['fqdn']}:${port}"
  notice($url, $demo::params::extra, $title)
  [1, 2].each |$i| { notice($i) }
}
