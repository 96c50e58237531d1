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
    /// What makes two declarations one resource, for an isomorphic type (empty for
    /// another, `exec`): its key attributes, sorted by name as Puppet's uniqueness key
    /// lists their values.
    #[serde(default)]
    pub key_attributes: Vec<String>,
    /// The key attribute a title gives when the declaration does not.
    #[serde(default)]
    pub title_attribute: Option<String>,
    /// The pattern (Ruby's, multiline) whose first group of the title gives it, where it
    /// is not the whole title (`File` leaves out trailing slashes).
    #[serde(default)]
    pub title_pattern: Option<String>,
}

impl ResourceType {
    /// The title pattern as a regular expression (`None`: the whole title; an error:
    /// a pattern this crate cannot read, so no key is known).
    pub fn title_regex(&self) -> Result<Option<regex::Regex>, regex::Error> {
        let Some(pattern) = &self.title_pattern else {
            return Ok(None);
        };
        // Ruby's `m` is `s` here; `\Z` (the end, or before a final line break) is
        // taken as the end: a title ending in a line break is not judged.
        let rust = format!("(?s){}", pattern.replace("\\Z", "\\z"));
        regex::Regex::new(&rust).map(Some)
    }

    /// Puppet's uniqueness key of a declaration titled `title` (`Resource#uniqueness_key`):
    /// each key attribute's value, given or from the title, `None` where neither gives
    /// it. `None` for a type that has none, or a title the pattern does not match.
    pub fn uniqueness_key(
        &self,
        title: &str,
        given: &dyn Fn(&str) -> Option<String>,
        title_regex: Option<&regex::Regex>,
    ) -> Option<Vec<Option<String>>> {
        if self.key_attributes.is_empty() {
            return None;
        }
        let from_title = match title_regex {
            None => title.to_string(),
            Some(regex) => regex.captures(title)?.get(1)?.as_str().to_string(),
        };
        Some(
            self.key_attributes
                .iter()
                .map(|attribute| match given(attribute) {
                    Some(value) => Some(value),
                    None if self.title_attribute.as_deref() == Some(attribute.as_str()) => {
                        Some(from_title.clone())
                    }
                    None => None,
                })
                .collect(),
        )
    }
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
