# Spec "Expressions", Function Calls: the function of a call is a name.
$greet = 'hello'
$greet('world')
# <- error[illegal-expression]: Illegal expression. A Variable is unacceptable as function name in a Function Call
$type <| tag == 'web' |>
# <- error[illegal-expression]: Illegal expression. A Variable is unacceptable as type name in a Virtual Query
