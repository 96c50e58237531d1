class profile::web {
  $service = Apache::Service
  notice($service)
}
