# @summary The message of the day.
class profile::motd {
  $motd = tools::join_too('Welcome to ', $facts['networking']['fqdn'])
  #       ^ error[unknown-function]: Unknown function: 'tools::join_too'.
  notice($motd)
}
