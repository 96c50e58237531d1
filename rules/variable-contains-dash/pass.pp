$label = "${app}-name"
$n = $a - 1
