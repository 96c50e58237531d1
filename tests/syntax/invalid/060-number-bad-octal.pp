$mode = 0789
notice($mode)
