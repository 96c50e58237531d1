node 'web1' {
  include role::web
}
