node {
  include role::base
}
