class site::mail (String $relay = 'localhost') {
  notice($relay, $ldap_servers)
  #              ^ warning[possibly-unknown-variable]: Unknown variable: 'ldap_servers'.
}

define site::mailbox (String $owner) {
  file { "/var/mail/${title}": owner => $owner, group => $mail_group }
  #                                                      ^ warning[possibly-unknown-variable]: Unknown variable: 'mail_group'.
}
