/* the web server */
# <- warning[star-comments]: /* */ comment found
include apache

/* followed by code: not fixed */ $y = 2
# <- warning[star-comments]: /* */ comment found
