ensure_packages(['vim'])
$port = $secure ? { true => 443, default => 80 }
