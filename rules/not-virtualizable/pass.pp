File { mode => '0644' }
@file { '/tmp/x': }
