class demo (
  Integer $port = 80,
  String  $name,
#         ^ warning[parameter-order]: optional parameter listed before required parameter
) { }
