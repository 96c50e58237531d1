notify { 'x':, message => 'hello' }
File { , , mode => '0644' }
notify { 'y':, }
