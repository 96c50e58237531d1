$ports = [80, 443]
$first = $ports[0]
$rest = $ports[1, -1]

$by_name = { 'http' => 80 }
$http = $by_name['http']
# A missing key is undef, not an error.
$ftp = $by_name['ftp']

$port_type = Integer[1, 65535]
$initial = 'puppet'[0]
