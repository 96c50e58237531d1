# @summary NTP
# @param servers The servers.
# @param port The port.
# @param mode The mode.
# @param enable Whether to run.
class ntp (
  Array[String] $servers = [],
  Integer $port = 123,
  Enum['client', 'server'] $mode = 'client',
  Boolean $enable = true,
) { }
