notice(1) # the answer
