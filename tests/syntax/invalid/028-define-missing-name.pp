define (Integer $port = 80) {
  notify { "port ${port}": }
}
