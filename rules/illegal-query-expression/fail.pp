User <| uid > 1000 |>
#       ^ error[illegal-query-expression]: Illegal query expression. A '>' expression cannot be used in a query
File <| "${x}" |>
#       ^ error[illegal-query-expression]: Illegal query expression. A Double Quoted String cannot be used in a query
File <| undef |>
#       ^ error[illegal-query-expression]: Illegal query expression. An 'undef' expression cannot be used in a query
