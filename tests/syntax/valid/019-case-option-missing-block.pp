case $role {
  'web': { include profile::web }
  default: {}
}
