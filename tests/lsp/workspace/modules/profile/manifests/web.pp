# @summary The web profile.
# @param port The port of the main site.
class profile::web (
  Profile::Port $port = 80,
) {
  $greeting = lookup('profile::web::greeting')
  $doubled = $port * 2
  $message = profile::greet('web')

  profile::vhost { 'main':
    port => $port,
  }

  notify { $message:
    message => "${greeting} ${doubled}",
  }
}
