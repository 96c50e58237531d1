node default {
  include profile::editor
}
