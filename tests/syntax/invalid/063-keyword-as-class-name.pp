class default {
  include ntp
}
