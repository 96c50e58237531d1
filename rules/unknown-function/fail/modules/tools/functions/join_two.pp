# @summary Joins two strings.
# @param a The first.
# @param b The second.
# @return The two joined.
function tools::join_two(String $a, String $b) >> String {
  "${a}${b}"
}
