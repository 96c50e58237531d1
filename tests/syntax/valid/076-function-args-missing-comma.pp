$line = join(['a', 'b'], ',')
notice($line)
