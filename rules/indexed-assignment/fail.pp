$settings = { 'port' => 80 }
$settings['port'] = 8080
# <- error[indexed-assignment]: Illegal attempt to assign via [index/key]. Not an assignable reference
