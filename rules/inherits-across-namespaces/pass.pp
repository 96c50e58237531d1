class demo::config inherits demo::params { }
