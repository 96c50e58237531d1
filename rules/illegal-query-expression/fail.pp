User <| uid > 1000 |>
#       ^ error[illegal-query-expression]: Illegal query expression. A '>' expression cannot be used in a query
