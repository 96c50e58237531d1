# café, in UTF-8
$a = 1
