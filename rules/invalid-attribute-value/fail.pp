file { '/etc/motd':
  ensure  => file,
  replace => 'never',
  #          ^ error[invalid-attribute-value]: Parameter replace failed on File[/etc/motd]: Invalid value "never". Valid values are true, false, yes, no.
}

service { 'ntp':
  hasstatus => 'maybe',
  #            ^ error[invalid-attribute-value]: Parameter hasstatus failed on Service[ntp]: Invalid value "maybe". Valid values are true, false.
}
