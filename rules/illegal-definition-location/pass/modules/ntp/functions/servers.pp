# @summary In ntp/functions/servers.pp.
function ntp::servers() { [] }
