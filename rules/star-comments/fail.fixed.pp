# the web server
# <- warning[star-comments]: /* */ comment found
include apache
