# café (Latin-1, not UTF-8)
$a = 1
