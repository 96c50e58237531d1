if ($facts['os']['release']['major'] == '8') {
  include profile::el8
}
