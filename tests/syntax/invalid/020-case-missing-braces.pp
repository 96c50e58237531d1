case $role
  'db': { include profile::db }
  default: { include profile::base }
