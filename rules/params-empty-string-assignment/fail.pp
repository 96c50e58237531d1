# @summary An empty string as "not set".
class demo (
  String $proxy = '',
#        ^ warning[params-empty-string-assignment]: class parameter with String type defaults to empty string
  Variant[String, Integer] $port = '',
#                          ^ warning[params-empty-string-assignment]: class parameter with String type defaults to empty string
) { }
