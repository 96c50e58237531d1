# @summary Everything inside the class.
class ntp {
  $ntp_server = 'pool.ntp.org'
  notice($ntp_server)
}
