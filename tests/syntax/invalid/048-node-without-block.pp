node 'web01.example.com'
include profile::web
