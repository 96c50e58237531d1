$ntp_server = 'pool.ntp.org'
# <- warning[code-on-top-scope]: code outside of class or define block - ntp_server
# @summary The class itself is fine.
class ntp {
  notice($ntp_server)
}
include ntp
# <- warning[code-on-top-scope]: code outside of class or define block - include
