# @summary Lambdas in default values may assign their own variables.
class demo (
  Integer $port = 8080,
  Array $doubled = [1, 2].map |$x| { $y = $x * 2 $y },
) {
  $default_port = 8080
}
