class my_module::config { }
