Package <| tag == 'base' |>
Package <| tag == 'base' |> -> Service['web']
notice(File <| |>)
$packages = Package['base']
$choice = $facts['os']['family'] ? { 'Debian' => File <| |>, default => undef }
