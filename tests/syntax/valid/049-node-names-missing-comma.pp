node 'web01.example.com', 'web02.example.com' {
  include role::web
}
