$port = 80
$_private = 1
notice($::fqdn, $0)
