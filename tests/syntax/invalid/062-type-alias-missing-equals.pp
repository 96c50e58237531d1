# A TCP/UDP port number
type Mymod::Port Integer[1, 65535]
