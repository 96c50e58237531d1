@File { mode => '0644' }
# <- error[not-virtualizable]: Resource Defaults are not virtualizable
