$ports = { 'http' => 80, 'https' => 443 }
$ports.each |$name $port| {
  notice("${name}=${port}")
}
