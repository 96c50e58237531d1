class Demo::Config { }
#     ^ warning[names-containing-uppercase]: class 'Demo::Config' contains illegal uppercase
