$limits = { 'nofile' => 1024, nofile => 65536 }
#                             ^ warning[duplicate-key]: The key 'nofile' is declared more than once
