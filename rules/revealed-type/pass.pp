# No probe, nothing revealed.
notice(8000 + 80)
