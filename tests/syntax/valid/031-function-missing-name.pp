function mymod::greet(String $name) >> String {
  "Hello ${name}"
}
