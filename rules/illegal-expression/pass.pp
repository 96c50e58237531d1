$greet = 'hello'
notice($greet)
$n = Integer('42')
$a = Array[Integer]([1, 2])
File <| tag == 'web' |>
