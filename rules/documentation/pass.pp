# @summary Installs demo.
class demo {
  # @summary A nested thing, documented too.
  define thing {
  }
}
