$port = Integer('8080')
$mode = Integer('0755', 8)
$flag = Boolean('yes')
$ratio = Numeric('0.5')
$version = SemVer('1.2.3')

# Text the code does not fix is not judged.
$cores = Integer($facts['processors']['count'])
