$limits = { 'nofile' => 1024, 'nproc' => 65536 }
