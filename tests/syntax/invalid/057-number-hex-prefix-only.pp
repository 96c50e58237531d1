$umask = 0x
notice($umask)
