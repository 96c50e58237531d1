# @summary The greeting for a name.
# @param name Who is greeted.
function profile::greet(String $name) >> String {
  "Hello, ${name}"
}
