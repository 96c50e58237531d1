# @summary Reads a variable it does not define.
class demo {
  notice($port)
#        ^ warning[variable-scope]: top-scope variable being used without an explicit namespace
}

# @summary A defined type inside a class: puppet-lint reads its parameters as part of the
# class's text, where a parameter with a default is assigned and one without is read.
class demo::outer {
  define demo::outer::inner(
    $bind,
#   ^ warning[variable-scope]: top-scope variable being used without an explicit namespace
    $app_type = 1,
  ) {
    notice($app_type, $bind)
#                     ^ warning[variable-scope]: top-scope variable being used without an explicit namespace
  }
}
