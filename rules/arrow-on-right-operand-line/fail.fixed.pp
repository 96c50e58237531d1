Package['demo']
#               ^ warning[arrow-on-right-operand-line]: arrow should be on the right operand's line
-> Service['demo']
