$path = '/etc/motd'
$line = "one\ntwo"
$greeting = "hello ${name}"
$quote = "it's"
$fact = $facts["os"]
