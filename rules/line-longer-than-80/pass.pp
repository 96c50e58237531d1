$packages = [
  'openssh-server', 'openssh-client', 'rsync', 'curl', 'vim', 'htop',
]
$url = 'https://example.com/a/very/long/path/that/is/fine/because/urls/are/exempt/from/it'
