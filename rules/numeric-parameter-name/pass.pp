[1, 2].each |$item| { }
