$port = 8080
