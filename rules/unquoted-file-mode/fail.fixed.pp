file { '/tmp/x': mode => '0644' }
#                        ^ warning[unquoted-file-mode]: unquoted file mode
