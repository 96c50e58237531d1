# @summary NTP
class ntp {
  # A misspelt parameter: the template has no 'server', and 'servers' is required.
  file { '/etc/ntp.conf':
    content => epp('ntp/ntp.conf.epp', { 'server' => 'pool.ntp.org' }),
    #          ^ error[epp-parameter-type]: Error while evaluating a Function Call, lambda:\n  has no parameter named 'server'\n  expects a value for parameter 'servers'
  }
  # A value of the wrong type.
  file { '/etc/ntp.alt.conf':
    content => epp('ntp/ntp.conf.epp', { 'servers' => ['pool.ntp.org'], 'port' => '123' }),
    #          ^ error[epp-parameter-type]: Error while evaluating a Function Call, lambda: parameter 'port' expects an Integer value, got String
  }
}
