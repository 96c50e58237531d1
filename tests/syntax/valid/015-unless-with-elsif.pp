unless $facts['is_virtual'] {
  include smartd
} else {
  if $facts['virtual'] == 'kvm' {
    include qemu_guest_agent
  }
}
