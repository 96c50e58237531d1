function demo::helper() { 1 }
type Demo::Port = Integer[1, 65535]
