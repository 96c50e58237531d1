$pkg = $facts['os']['family'] ? 'RedHat' => 'httpd', default => 'apache2'
package { $pkg: ensure => installed }
