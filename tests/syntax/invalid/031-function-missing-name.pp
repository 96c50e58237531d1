function (String $name) >> String {
  "Hello ${name}"
}
