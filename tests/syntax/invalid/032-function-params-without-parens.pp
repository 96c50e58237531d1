function mymod::double Integer $x >> Integer {
  $x * 2
}
