# A selector with a single entry needs no braces.
$y = $x ? 'a' => 1
file { $a ? 'x' => 'y': }
