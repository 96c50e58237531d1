class demo {
  include demo::install
  $motd = "tabs	in strings	are text"
  # a tab	in a comment
}
