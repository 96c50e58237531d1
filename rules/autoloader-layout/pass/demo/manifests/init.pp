# @summary The module's main class, in demo/manifests/init.pp.
class demo {
}
