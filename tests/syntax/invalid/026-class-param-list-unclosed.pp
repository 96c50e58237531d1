class profile::ssh (
  Integer $port = 22,
  Boolean $permit_root = false,
{
  notice($port)
}
