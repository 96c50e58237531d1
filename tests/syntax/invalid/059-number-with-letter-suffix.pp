$timeout = 30s
notice($timeout)
