# Every parameter without a default given (`undef` counts), by the body, a `default:`
# body, a known hash; or a value that may come from elsewhere.
define web::vhost (Integer $port, String $docroot, String $owner = 'www-data') { }
define web::site (String $root) { }

web::vhost { 'www': port => 80, docroot => '/srv/www' }
web::vhost { 'undef': port => 80, docroot => undef }
web::vhost {
  default:
    port => 80;
  'a':
    docroot => '/srv/a';
  'b':
    docroot => '/srv/b';
}
web::vhost { 'splat': * => $facts['vhost'] }

# A resource default of the type anywhere may give the value.
Web::Site { root => '/srv' }
web::site { 'defaulted': }
