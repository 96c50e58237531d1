Package['demo'] -> Service['demo']
