$release = 'trixie'
$codename = $release ? {
  'bookworm' => 12,
  'trixie'   => 13,
}

# A subject the code does not fix may match.
$family = $facts['os']['family'] ? {
  'Debian' => 'apt',
  'RedHat' => 'yum',
}
