$port = 8080
notice(　$port)
