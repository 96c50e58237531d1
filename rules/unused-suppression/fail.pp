$a = 1 # lint:ignore:140chars
#      ^ warning[unused-suppression]: this suppression of `140chars` suppresses nothing
$b = 2 # pupcheck:ignore:no-such-rule
#      ^ warning[unused-suppression]: `no-such-rule` is not a pupcheck rule (see `pupcheck rules`)
