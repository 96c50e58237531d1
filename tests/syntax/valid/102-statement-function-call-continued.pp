# A call of a statement function with parentheses is an ordinary call expression: it
# may be chained, related or used as an operand.
include(foo) -> Class['bar']
notice(1).foo
$v = tag == 'x'
File <| tag == 'web' |>
