class demo {
  include demo::install
}
function demo::answer() >> Integer {
  42
}
