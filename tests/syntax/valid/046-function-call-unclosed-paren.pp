notice('Configuring host')
package { 'curl': ensure => installed }
