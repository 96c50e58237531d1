$enabled = true
else {
  notify { 'disabled': }
}
