# `type` and `function` stand for themselves as array elements and hash values.
$x = [type, function
$y = { 'a' => function, type => type }
file { [function]: }
