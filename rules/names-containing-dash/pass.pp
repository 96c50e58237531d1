define my_module::thing { }
