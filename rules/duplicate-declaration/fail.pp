class profile::tools {
  package { 'curl': ensure => installed }
  package { 'curl': ensure => latest }
  #         ^ error[duplicate-declaration]: Duplicate declaration: Package[curl] is already declared
}
