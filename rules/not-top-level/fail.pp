if $facts['os']['family'] == 'Debian' {
  class demo::debian { }
# ^ error[not-top-level]: Classes, definitions, and nodes may only appear at toplevel or inside other classes
}
