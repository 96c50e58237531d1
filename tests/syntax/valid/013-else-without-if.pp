$enabled = true
if $enabled {
  notify { 'enabled': }
} else {
  notify { 'disabled': }
}
