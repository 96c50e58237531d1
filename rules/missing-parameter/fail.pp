define web::vhost (Integer $port, String $docroot, String $owner = 'www-data') { }

web::vhost { 'www': docroot => '/srv/www' }
#            ^ error[missing-parameter]: Web::Vhost[www]: expects a value for parameter 'port'
web::vhost { 'api': owner => 'api' }
#            ^ error[missing-parameter]: Web::Vhost[api]:\n  expects a value for parameter 'port'\n  expects a value for parameter 'docroot'

# The entries of a hash the evaluation knows.
$settings = { 'port' => 8080 }
web::vhost { 'admin': * => $settings }
#            ^ error[missing-parameter]: Web::Vhost[admin]: expects a value for parameter 'docroot'
create_resources('web::vhost', { 'static' => { 'docroot' => '/srv/static' } })
# <- error[missing-parameter]: Web::Vhost[static]: expects a value for parameter 'port'

# Puppet requires the parameters of virtual and exported resources too.
@web::vhost { 'virtual': docroot => '/srv/virtual' }
#             ^ error[missing-parameter]: Web::Vhost[virtual]: expects a value for parameter 'port'
