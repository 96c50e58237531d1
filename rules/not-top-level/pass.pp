class demo {
  class debian { }
}
node default {
  include demo
}
