class profile::ntp Array[String] $servers = [] {
  notice($servers)
}
