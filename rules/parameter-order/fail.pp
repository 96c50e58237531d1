class demo (
  Integer $port = 80,
  String  $name,
#         ^ warning[parameter-order]: optional parameter listed before required parameter
  # Puppet asks for a value for an Optional parameter without a default too.
  Optional[String] $alias_name,
#                  ^ warning[parameter-order]: optional parameter listed before required parameter
) { }
