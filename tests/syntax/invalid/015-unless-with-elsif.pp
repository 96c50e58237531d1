unless $facts['is_virtual'] {
  include smartd
} elsif $facts['virtual'] == 'kvm' {
  include qemu_guest_agent
}
