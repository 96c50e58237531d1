$pkgs = ['vim', 'git']
$pkgs.each |$p| { package { $p: ensure => installed } }
