# @summary The database profile.
class profile::db {
  require profile::web

  profile::vhost { 'admin':
    port => 8081,
  }
}
