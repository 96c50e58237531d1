# @summary Optional parameters.
class demo (
  Optional[String[1]] $proxy = undef,
  String $greeting = 'hello',
  $untyped = '',
) { }
