notice("%>")
$x = " %>"
$y = "-%>"
notice("\n%>", $x, $y, "${x}%>")
