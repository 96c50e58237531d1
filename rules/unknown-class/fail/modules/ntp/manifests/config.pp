class ntp::config { }
