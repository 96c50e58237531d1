# the web server
include apache
