$pattern = 'web'
notice('web01' =~ /^web/)
