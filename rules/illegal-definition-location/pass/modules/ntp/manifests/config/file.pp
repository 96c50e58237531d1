# @summary In ntp/manifests/config/file.pp.
class ntp::config::file { }
