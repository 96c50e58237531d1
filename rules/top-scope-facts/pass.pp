# @summary The facts hash, trusted facts and qualified variables.
class demo {
  $service = $facts['operatingsystem'] ? {
    'Debian' => 'apache2',
    default  => 'httpd',
  }
  notice($::trusted['certname'], $::facts['os'], $demo::params::x)
}
