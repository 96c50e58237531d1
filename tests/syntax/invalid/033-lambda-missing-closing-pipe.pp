$users = ['alice', 'bob']
$users.each |$user {
  user { $user: ensure => present }
}
