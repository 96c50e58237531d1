# @summary A virtual host.
# @param port Where it listens.
# @param docroot What it serves.
define profile::vhost (
  Profile::Port $port,
  String $docroot = '/var/www',
) {
  file { "/etc/vhosts/${title}.conf":
    ensure  => file,
    content => "${port} ${docroot}\n",
  }
}
