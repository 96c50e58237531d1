class profile::tools (Boolean $latest) {
  package { 'curl': ensure => installed }
  # Branches that exclude each other declare it once.
  if $latest {
    package { 'wget': ensure => latest }
  } else {
    package { 'wget': ensure => installed }
  }
  # Titles that differ in case are different references.
  package { 'Curl': }
}
