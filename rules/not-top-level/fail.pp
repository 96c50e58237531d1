if $facts['os']['family'] == 'Debian' {
  class demo::debian { }
# ^ error[not-top-level]: Classes, definitions, and nodes may only appear at toplevel or inside other classes
}

if $facts['os']['family'] == 'Debian' {
  function demo::debian() { 1 }
# ^ error[not-top-level]: Classes, definitions, and nodes may only appear at toplevel or inside other classes
}
