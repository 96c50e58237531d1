file { '/etc/motd':
  ensure  => file,
  replace => 'never',
  #          ^ error[invalid-attribute-value]: Parameter replace failed on File[/etc/motd]: Invalid value "never". Valid values are true, false, yes, no.
}

service { 'ntp':
  hasstatus => 'maybe',
  #            ^ error[invalid-attribute-value]: Parameter hasstatus failed on Service[ntp]: Invalid value "maybe". Valid values are true, false.
}

# A value the code fixes before the declaration is judged the same way.
$status = 'maybe'
service { 'cron':
  hasstatus => $status,
  #            ^ error[invalid-attribute-value]: Parameter hasstatus failed on Service[cron]: Invalid value "maybe". Valid values are true, false.
}

# In a lambda too, where the value does not depend on the lambda's parameters.
['a'].each |$name| {
  file { '/tmp/lambda':
    content => $name,
    replace => 'sometimes',
    #          ^ error[invalid-attribute-value]: Parameter replace failed on File[/tmp/lambda]: Invalid value "sometimes". Valid values are true, false, yes, no.
  }
}
