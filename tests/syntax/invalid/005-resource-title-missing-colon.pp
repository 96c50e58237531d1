package { 'httpd'
  ensure => installed,
}
