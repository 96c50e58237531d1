class demo (
  String            $name,
  Optional[String]  $alias_name,
  Integer           $port = 80,
  Optional[String]  $comment = undef,
) { }
