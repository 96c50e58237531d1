# A TCP port.
type Profile::Port = Integer[1, 65535]
