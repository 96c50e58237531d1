# @summary Belongs in ntp/manifests/service.pp.
class ntp::service { }
# <- error[illegal-definition-location]: Unacceptable location. The name 'ntp::service' is unacceptable in file 'ntp/manifests/config.pp'
