# @summary The module's main class, with a nested class.
class ntp {
  # @summary Qualified as ntp::inner.
  class inner { }
}
