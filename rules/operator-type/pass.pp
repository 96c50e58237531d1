# A numeric string takes part as its number.
$base = 8000
$port = $base + '80'

# Values the code does not fix are not judged.
$next = $facts['processors']['count'] + 1

# A comparison of strings is case-insensitive and allowed.
$later = 'b' > 'A'

# An integer turned into a string can be matched.
$answer = "${base}" =~ /^8/
