# Listed values and their aliases, booleans, values pupcheck cannot know.
file { '/etc/motd':
  ensure  => file,
  replace => false,
  force   => 'yes',
  links   => follow,
  purge   => $purge,
}

service { 'ntp':
  ensure    => running,
  enable    => true,
  hasstatus => true,
}
