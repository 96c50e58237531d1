class demo (
  String            $name,
  Integer           $port = 80,
  Optional[String]  $alias_name,
) { }
