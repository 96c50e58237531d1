package { 'httpd':
  ensure => installed,
}
