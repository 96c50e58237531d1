$ldap_servers = ['ldap1']
class site::mail::params {
  $mail_group = 'mail'
}
class site::mail (String $relay = 'localhost') inherits site::mail::params {
  # A top-scope variable the environment sets, a fact, the parent's variable.
  notice($relay, $ldap_servers, $osfamily, $mail_group)
  # A name the code tests for first.
  if defined('$mail_domain') {
    notice($mail_domain)
  }
}
