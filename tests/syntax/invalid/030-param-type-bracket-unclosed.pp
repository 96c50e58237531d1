class profile::app (
  Optional[String $version = undef,
) {
  notice($version)
}
