class base {
  include ntp
}
