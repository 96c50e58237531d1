class demo::string { }
