define myapp::vhost (Integer $port = 80) {
  notify { "port ${port}": }
}
