$workers = 4
$share = 100 / $workers

# A divisor the code does not fix is not judged.
$per_cpu = 100 / $facts['processors']['count']

# A guarded division is not reached with zero.
$none = 0
if $none > 0 {
  $each = 100 / $none
}
