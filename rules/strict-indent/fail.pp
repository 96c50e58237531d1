# @summary Four spaces where two are expected.
class demo {
    file { '/etc/motd':
# <- warning[strict-indent]: indent should be 2 chars and is 4
      ensure => file,
# <- warning[strict-indent]: indent should be 4 chars and is 6
    }
# <- warning[strict-indent]: indent should be 2 chars and is 4
}
