//! What pupcheck knows of a resource type written in Ruby, wherever it comes from:
//! Puppet's own types and those of the modules Puppet ships (generated data,
//! `data/resource_types.toml`), or a module's `lib/puppet/type/<name>.rb` read as text
//! (`ruby::resource_type`, the layer above).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResourceType {
    /// Its parameters and properties (not the metaparameters).
    pub attributes: Vec<String>,
    /// The values an attribute accepts, where the type lists all of them (its
    /// `newvalues`), in the order Puppet names them.
    #[serde(default)]
    pub values: BTreeMap<String, Vec<String>>,
    /// Other names those attributes accept for a listed value (`aliasvalue`), which
    /// Puppet does not name in its message.
    #[serde(default)]
    pub aliases: BTreeMap<String, Vec<String>>,
    /// The Puppet type a Resource API type declares for an attribute (`Optional[String]`).
    #[serde(default)]
    pub types: BTreeMap<String, String>,
    /// Whether `provider` is accepted without being listed: a module's type read from
    /// its file, which gets the parameter once a provider of it exists.
    #[serde(default)]
    pub implicit_provider: bool,
    /// The module Puppet ships the type in (`cron_core`), for the types of Puppet's
    /// bundled modules.
    #[serde(default)]
    pub module: Option<String>,
}

impl ResourceType {
    /// Whether a declaration may give `name`: one of its attributes, `name` (its
    /// namevar's other name), a metaparameter, or `provider` where it is implicit.
    pub fn accepts_attribute(&self, name: &str) -> bool {
        name == "name"
            || (self.implicit_provider && name == "provider")
            || self.attributes.iter().any(|a| a == name)
            || super::is_metaparameter(name)
    }

    /// Whether `attribute` accepts the value named `value`: `None` when the type does
    /// not list all the values it accepts.
    pub fn accepts_value(&self, attribute: &str, value: &str) -> Option<bool> {
        let listed = self.values.get(attribute)?;
        let aliases = self.aliases.get(attribute).into_iter().flatten();
        Some(listed.iter().chain(aliases).any(|v| v == value))
    }
}
