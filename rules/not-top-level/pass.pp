class demo {
  class debian { }
}
node default {
  include demo
}

# A plan's `apply` block is compiled as a catalog's top level: a node definition may
# stand there (`puppet parser validate --tasks` accepts it).
plan demo::configure(TargetSpec $targets) {
  apply($targets) {
    node default { }
  }
}
