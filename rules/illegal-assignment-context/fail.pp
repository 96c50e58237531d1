# @summary Assignments in default values.
class demo (
  Integer $port = ($default_port = 8080),
#                  ^ error[illegal-assignment-context]: Assignment not allowed here
  Array $ports = [$first = 1, 2],
#                 ^ error[illegal-assignment-context]: Assignment not allowed here
) { }
