class profile::web {
  $service = Apache::service
  notice($service)
}
