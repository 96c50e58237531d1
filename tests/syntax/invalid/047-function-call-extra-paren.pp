$joined = join(['a', 'b'], ','))
notice($joined)
