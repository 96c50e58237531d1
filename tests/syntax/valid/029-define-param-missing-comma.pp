define apache::vhost (
  String $docroot,
  Integer $port = 80,
) {
  notify { "${title} on ${port}": }
}
