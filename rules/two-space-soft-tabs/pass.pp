class demo {
  include demo::install
  $text = "a string
   whose lines are text"
}
