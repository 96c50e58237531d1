# @summary Installs and configures the demo service.
#
# @param port The port the service listens on.
# @param motd_lines Lines for the message of the day.
class demo (
  Integer[1, 65535] $port       = 8080,
  Array[String]     $motd_lines = ['Welcome'],
) {
  contain demo::install
  contain demo::config

  Class['demo::install'] -> Class['demo::config']
}
