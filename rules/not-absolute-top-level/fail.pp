class demo {
  include demo::install
  function demo::helper() { 1 }
# ^ error[not-absolute-top-level]: A Function Definition may only appear at toplevel
}
