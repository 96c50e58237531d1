# @summary Lives in the wrong file: Puppet looks in demo/manifests/config.pp.
class demo::config {
#     ^ warning[autoloader-layout]: demo::config not in autoload module layout
}
