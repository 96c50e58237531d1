class demo {
  class config { }
# ^ warning[nested-classes-or-defines]: class defined inside a class
  define thing { }
# ^ warning[nested-classes-or-defines]: defined type defined inside a class
}
