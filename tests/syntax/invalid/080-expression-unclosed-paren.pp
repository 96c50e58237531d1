$total = ($facts['processors']['count'] * 2
notice($total)
