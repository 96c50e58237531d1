$pkg = $facts['os']['family'] ? {
  'RedHat' => 'httpd',
  default  => 'apache2',
}
