$trusted_hosts = {}
