class demo {
  include demo::install
  function demo::helper() { 1 }
# ^ error[not-absolute-top-level]: A Function Definition may only appear at toplevel
}

class demo::types {
  type Demo::Types::Port = Integer[1, 65535]
#      ^ error[not-absolute-top-level]: A Type Alias may only appear at toplevel
}
