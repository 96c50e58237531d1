node default {
  include role::base
}
