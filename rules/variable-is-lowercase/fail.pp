$myVar = 1
# <- warning[variable-is-lowercase]: variable contains an uppercase letter

# Parameters, of definitions and of lambdas, are variables too.
define demo::service(
  $hasService = true,
# ^ warning[variable-is-lowercase]: variable contains an uppercase letter
) {
  [1].each |$myItem| { notice($myItem) }
#           ^ warning[variable-is-lowercase]: variable contains an uppercase letter
#                             ^ warning[variable-is-lowercase]: variable contains an uppercase letter
}
