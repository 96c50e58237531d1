# @summary The facts hash, trusted facts and qualified variables.
class demo {
  $service = $facts['operatingsystem'] ? {
    'Debian' => 'apache2',
    default  => 'httpd',
  }
  notice($::trusted['certname'], $::facts['os'], $demo::params::x)
}

# Legacy facts are legacy-facts' findings (as puppet-lint 4 leaves them to legacy_facts).
notice($::osfamily, "${::operatingsystem}")
