class demo::config { }
#     ^ warning[names-containing-uppercase]: class 'Demo::Config' contains illegal uppercase
