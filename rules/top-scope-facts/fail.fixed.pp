# @summary Top-scope facts.
class demo {
  $service = $facts['operatingsystem'] ? {
#            ^ warning[top-scope-facts]: top scope fact instead of facts hash
    'Debian' => 'apache2',
    default  => 'httpd',
  }
  notice("${facts['my_custom_fact']}")
#           ^ warning[top-scope-facts]: top scope fact instead of facts hash
}
