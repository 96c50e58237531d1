$packages = Package <| tag == 'base' |>
#           ^ error[not-rvalue]: Invalid use of expression. A Virtual Query does not produce a value
$all = [File <<| |>>]
#       ^ error[not-rvalue]: Invalid use of expression. An Exported Query does not produce a value
$by_name = { 'web' => Service <| |> }
#                     ^ error[not-rvalue]: Invalid use of expression. A Virtual Query does not produce a value
$none = !File <| |>
#        ^ error[not-rvalue]: Invalid use of expression. A Virtual Query does not produce a value
