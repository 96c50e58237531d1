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

# A variable this environment's own top-scope code sets is that variable, not a fact.
$realm = 'production'
notice($::realm)
