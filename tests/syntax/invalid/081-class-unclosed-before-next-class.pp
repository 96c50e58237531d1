class profile::db {
  package { 'postgresql': ensure => installed }

class profile::app {
  package { 'nginx': ensure => installed }
}
