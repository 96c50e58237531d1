$settings = { 'port' => 80 }
$new = $settings + { 'port' => 8080 }
