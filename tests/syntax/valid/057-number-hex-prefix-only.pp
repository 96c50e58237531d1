$umask = 0x12
notice($umask)
