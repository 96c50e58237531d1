$port = $proto ? { 'https' => 443, default => 80 }
