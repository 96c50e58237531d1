User <| (tag == 'admin' or title == 'root') and ensure != absent |>
# A query may be a single name, variable, number, boolean or non-interpolating string.
File <| title |>
File <| $managed |>
File <| 1.5 |>
File <| true |>
File <| "abc" |>
File <| 'a' and title |>
