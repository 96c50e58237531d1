$conf = @("CONF"/x)
  listen ${port}
  | CONF
