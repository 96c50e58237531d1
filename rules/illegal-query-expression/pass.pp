User <| (tag == 'admin' or title == 'root') and ensure != absent |>
