$pattern = '^\d+$'
$tab = "a\tb"
