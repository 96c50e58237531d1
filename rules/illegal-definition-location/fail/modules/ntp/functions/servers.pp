# @summary A function of another module.
function chrony::servers() { [] }
# <- error[illegal-definition-location]: Unacceptable location. The name 'chrony::servers' is unacceptable in file 'ntp/functions/servers.pp'
