Package['demo']
-> Service['demo']
~> Exec['reload']
