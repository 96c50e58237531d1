$port = $proto ? { 'https' => 443, default => 80, default => 8080 }
#                                                 ^ error[duplicate-default]: This Selector Expression already has a 'default' entry - this is a duplicate
