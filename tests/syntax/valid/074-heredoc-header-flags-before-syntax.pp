$config = @(EOT:json/n)
  {"port": 8080}
  | EOT
notice($config)
