# @summary Top-scope facts.
class demo {
  $service = $::web_flavour ? {
#            ^ warning[top-scope-facts]: top scope fact instead of facts hash
    'nginx' => 'nginx',
    default => 'httpd',
  }
  notice("${::my_custom_fact}")
#           ^ warning[top-scope-facts]: top scope fact instead of facts hash
}

# Without braces in a string, the fix adds them so the string still reads the fact.
notice("running in $::datacenter")
#                  ^ warning[top-scope-facts]: top scope fact instead of facts hash

# A fact Facter reports: the fix is safe. The names above may be top-scope variables set
# where pupcheck cannot see: their fix is unsafe (`--unsafe-fixes`).
notice($::timezone)
#      ^ warning[top-scope-facts]: top scope fact instead of facts hash
