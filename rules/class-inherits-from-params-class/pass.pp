# @summary Defaults in the parameter list (or the module's Hiera data).
class ntp (
  Array[String] $servers = ['0.pool.ntp.org'],
) {
}
