//! Puppet's built-in resource types, as data (`data/resource_types.toml`, generated from
//! Puppet itself by `scripts/puppet/resource_types.rb`): their attributes and namevar,
//! and the closed lists of values some attributes take.

pub mod facts;
pub mod functions;
pub mod hiera;

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One built-in resource type.
#[derive(Debug, Deserialize)]
pub struct ResourceType {
    pub namevar: String,
    /// Parameters and properties (not the metaparameters).
    pub attributes: Vec<String>,
    /// The values an attribute accepts, where the type lists all of them.
    #[serde(default)]
    pub values: BTreeMap<String, Vec<String>>,
}

impl ResourceType {
    /// Whether `name` is an attribute every resource of this type may be given: its
    /// own, `name` (its namevar's other name) or a metaparameter.
    pub fn accepts_attribute(&self, name: &str) -> bool {
        name == "name"
            || self.attributes.iter().any(|a| a == name)
            || table().metaparameters.iter().any(|m| m == name)
    }
}

#[derive(Debug, Deserialize)]
struct Table {
    metaparameters: Vec<String>,
    types: BTreeMap<String, ResourceType>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        toml::from_str(include_str!("../../data/resource_types.toml"))
            .expect("data/resource_types.toml is generated valid")
    })
}

/// The built-in resource type called `name` (`file`), if Puppet has one.
/// Whether `name` is one of Puppet's metaparameters (`require`, `tag`, ...), which
/// every resource accepts.
pub fn is_metaparameter(name: &str) -> bool {
    table().metaparameters.iter().any(|m| m == name)
}

pub fn resource_type(name: &str) -> Option<&'static ResourceType> {
    table().types.get(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_puppets_core_types() {
        let file = resource_type("file").expect("file");
        assert_eq!(file.namevar, "path");
        assert!(file.accepts_attribute("ensure"));
        assert!(file.accepts_attribute("require"));
        assert!(file.accepts_attribute("name"));
        assert!(!file.accepts_attribute("ensur"));
        assert!(!file.accepts_attribute("title"));
        assert!(resource_type("package").is_some());
        assert!(
            resource_type("concat").is_none(),
            "a module's type, not Puppet's"
        );
    }
}
