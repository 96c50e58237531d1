$conf = @("CONF"/t)
  listen ${port}
  | CONF
