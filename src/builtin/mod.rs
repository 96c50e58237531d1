//! Puppet's built-in resource types, as data (`data/resource_types.toml`, generated from
//! Puppet itself by `scripts/puppet/resource_types.rb`): their attributes and namevar,
//! and the closed lists of values some attributes take.

pub mod facts;
pub mod functions;
pub mod hiera;
pub mod legacy_facts;
pub mod resource_type;

use resource_type::ResourceType;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

#[derive(Debug, Deserialize)]
struct Table {
    metaparameters: Vec<String>,
    /// Puppet's own types.
    types: BTreeMap<String, Arc<ResourceType>>,
    /// The types of the modules Puppet ships with itself (`cron_core`, `mount_core`,
    /// ...), which a module of the environment may replace.
    #[serde(default)]
    bundled: BTreeMap<String, Arc<ResourceType>>,
    /// The types of the modules Puppet's agent package vendors that the table has no
    /// attributes of (`yumrepo`, `zfs`): known to exist, nothing more. Required, so
    /// that a table whose generator put it in another table fails to load.
    vendored_names: Vec<String>,
}

/// A table of built-in knowledge, with the regular expressions it
/// lists compiled once (facts named by a pattern, `ipaddress_<interface>`).
pub struct WithPatterns<T> {
    pub table: T,
    /// The patterns' sources, each compiled on its first use ([`WithPatterns::pattern`]):
    /// only a name the set matches needs its pattern's captures.
    sources: Vec<(String, OnceLock<regex::bytes::Regex>)>,
    /// All of them at once: most names asked about match none, which one pass says.
    /// Over bytes, without Unicode classes: the names they match are ASCII, and a
    /// Unicode `.` made compiling them a tenth of a one-file check.
    set: regex::bytes::RegexSet,
}

impl<T: serde::de::DeserializeOwned> WithPatterns<T> {
    /// Reads the table `from` (embedded in the binary and read by tests: an error is a
    /// bug) and compiles the patterns `patterns` picks from it.
    pub fn read(
        from: crate::builtin_data::Table,
        patterns: impl Fn(&T) -> Vec<&str>,
    ) -> WithPatterns<T> {
        let table: T = from.read();
        let name = from.file();
        let sources = patterns(&table);
        let set = regex::bytes::RegexSetBuilder::new(&sources)
            .unicode(false)
            .build()
            .unwrap_or_else(|e| panic!("{name}: patterns: {e}"));
        let sources = sources
            .iter()
            .map(|p| (p.to_string(), OnceLock::new()))
            .collect();
        WithPatterns {
            table,
            sources,
            set,
        }
    }

    /// The pattern at `index`, compiled (the set accepted its source already).
    pub fn pattern(&self, index: usize) -> &regex::bytes::Regex {
        let (source, compiled) = &self.sources[index];
        compiled.get_or_init(|| {
            regex::bytes::RegexBuilder::new(source)
                .unicode(false)
                .build()
                .unwrap_or_else(|e| panic!("pattern {source}: {e}"))
        })
    }

    /// The first pattern (in the table's order) that `name` matches.
    pub fn first_match(&self, name: &str) -> Option<usize> {
        self.set.matches(name.as_bytes()).iter().next()
    }
}

/// Starts reading Puppet's built-in tables (resource types, functions, facts, `new`'s
/// signatures, legacy facts) on a thread of its own, once per process, rather than on
/// first use. Each is read from the binary (`crate::builtin_data`) and the types or
/// patterns it names resolved or compiled, a few milliseconds in all, which a check of
/// one file would otherwise spend on its longest path; a run of a few files reads them
/// on a core that would wait while the files are parsed. (Not on rayon's pool, whose
/// workers the checks need; a check that needs a table before it is read waits for it,
/// one that needs none does not wait.)
pub fn read_tables_in_background() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let read = || {
            functions::read_table();
            table();
            facts::read_table();
            crate::types::init::read_table();
            legacy_facts::read_table();
        };
        // (Without a thread, each table is read on first use, as before.)
        let _ = std::thread::Builder::new()
            .name("pupcheck-tables".into())
            .spawn(read);
    });
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| crate::builtin_data::Table::ResourceTypes.read())
}

/// Puppet's metaparameters, which every resource accepts.
pub fn metaparameters() -> &'static [String] {
    &table().metaparameters
}

/// Whether `name` is one of Puppet's metaparameters (`require`, `tag`, ...), which
/// every resource accepts.
pub fn is_metaparameter(name: &str) -> bool {
    table().metaparameters.iter().any(|m| m == name)
}

/// Application orchestration's metaparameters, gone since Puppet 6: a resource given one
/// fails, but pupcheck does not judge that (code for an older Puppet may still use them).
pub const RETIRED_METAPARAMETERS: &[&str] = &["consume", "export"];

/// Whether a resource attribute or a definition's variable of this name comes from
/// every resource: a metaparameter, or a retired one (not judged).
pub fn is_metaparameter_or_retired(name: &str) -> bool {
    is_metaparameter(name) || RETIRED_METAPARAMETERS.contains(&name)
}

/// The resource type called `name` (`file`) built into Puppet itself, if it has one.
pub fn resource_type(name: &str) -> Option<Arc<ResourceType>> {
    table().types.get(name).cloned()
}

/// Every key attribute of Puppet's own resource types (`name`, `path`, `provider`, ...).
pub fn resource_types_keys() -> impl Iterator<Item = &'static str> {
    table()
        .types
        .values()
        .flat_map(|t| t.key_attributes.iter().map(String::as_str))
}

/// The names of the resource types Puppet's agent knows without any module: its own
/// and those of the modules it ships with itself.
pub fn resource_type_names() -> impl Iterator<Item = &'static str> {
    let table = table();
    table
        .types
        .keys()
        .chain(table.bundled.keys())
        .map(String::as_str)
}

/// The resource type `name` (`cron`) of one of the modules Puppet ships with itself.
pub fn bundled_resource_type(name: &str) -> Option<Arc<ResourceType>> {
    table().bundled.get(name).cloned()
}

/// Whether Puppet's agent knows the resource type `name` (lowercase) without any module
/// of the environment: its own, or one of the modules it ships with itself.
pub fn resource_type_exists(name: &str) -> bool {
    let table = table();
    table.types.contains_key(name)
        || table.bundled.contains_key(name)
        || table.vendored_names.iter().any(|n| n == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agents_vendored_types_exist() {
        for name in [
            "yumrepo",
            "scheduled_task",
            "zfs",
            "zpool",
            "zone",
            "cron",
            "file",
        ] {
            assert!(resource_type_exists(name), "{name}");
        }
        assert!(!resource_type_exists("pakage"));
    }

    #[test]
    fn the_table_has_puppets_core_types() {
        let file = resource_type("file").expect("file");
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
