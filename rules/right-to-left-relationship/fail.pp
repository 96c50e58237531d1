Service['demo'] <- Package['demo']
#               ^ warning[right-to-left-relationship]: right-to-left (<-) relationship
