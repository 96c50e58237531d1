class demo::config { }
