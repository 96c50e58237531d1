# @summary Reads a variable it does not define.
class demo {
  notice($port)
#        ^ warning[variable-scope]: top-scope variable being used without an explicit namespace
}
