$port = 8080
$checked = assert_type(Integer, $port)

# A value the code does not fix may be of the type.
$cores = assert_type(Integer, $facts['processors']['count'])

class web (Variant[String, Integer] $listen) {
  # Some values of the parameter's type are Integers.
  $port = assert_type(Integer, $listen)
}
