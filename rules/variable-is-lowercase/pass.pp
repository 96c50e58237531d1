$my_var = 1
