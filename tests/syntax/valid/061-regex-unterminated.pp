if $facts['networking']['hostname'] =~ /^web\d+/ {
  include role::web
}
