# @summary demo::server::config, in demo/manifests/server/config.pp.
class demo::server::config {
}
