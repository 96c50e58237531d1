$limits = { 'nofile': 65536, 'nproc': 4096 }
notice($limits)
