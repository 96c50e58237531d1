# @summary The message of the day.
class profile::motd {
  $motd = tools::join_two('Welcome to ', $facts['networking']['fqdn'])
  notice($motd)
}
