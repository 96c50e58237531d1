$timeout = 30
notice($timeout)
