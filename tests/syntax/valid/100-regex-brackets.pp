$kind = $facts['os']['family'] ? {
  /^(Debian|Ubuntu)$/ => 'deb',
  /^[A-Z]+hat/        => 'rpm',
  default             => 'other',
}
notice($kind)
