$config = @(EOT/n:json)
  {"port": 8080}
  | EOT
notice($config)
