# @summary Arrows with other than one space before them, in bodies with nothing to align.
class demo {
  file { '/etc/motd':
    ensure => file,
#         ^ warning[space-before-arrow]: there should be a single space before '=>' on line 4, column 11
  }
  file { '/etc/issue': ensure =>file, mode => '0644' }
#                      ^ warning[space-before-arrow]: there should be a single space before '=>' on line 7, column 24
#                                        ^ warning[space-before-arrow]: there should be a single space before '=>' on line 7, column 42
}
