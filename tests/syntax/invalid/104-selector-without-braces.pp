# A selector with a single entry needs no braces.
$y = $x ? 'a'
file { $a ? 'x' => 'y': }
