$visibility = 'private'

# Inside `${...}` a bare word is a variable's name, reserved or not (Puppet accepts it).
$attr = 'a'
notice("${attr} ${private}")
