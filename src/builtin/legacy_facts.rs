//! The legacy (flat) facts Facter 3 dropped and the structured facts that replace them
//! (`data/legacy_facts.toml`): by name, or by a pattern for those named after a device,
//! an interface, ... (`ipaddress_eth0`).

use foldhash::HashMap;
use serde::Deserialize;
use std::sync::OnceLock;

#[derive(Deserialize)]
struct Table {
    unconvertible: Vec<String>,
    renamed: HashMap<String, Vec<String>>,
    pattern: Vec<Pattern>,
}

#[derive(Deserialize)]
struct Pattern {
    regex: String,
    path: Vec<String>,
}

type Facts = super::WithPatterns<Table>;

/// Reads the table now (`super::read_tables_in_background`).
pub(super) fn read_table() {
    facts();
}

fn facts() -> &'static Facts {
    static FACTS: OnceLock<Facts> = OnceLock::new();
    FACTS.get_or_init(|| {
        Facts::read(crate::builtin_data::Table::LegacyFacts, |t| {
            t.pattern.iter().map(|p| p.regex.as_str()).collect()
        })
    })
}

/// Whether `name` is a legacy fact and, when it has one, its structured path.
pub fn lookup(name: &str) -> Option<Option<Vec<String>>> {
    let facts = facts();
    if let Some(path) = facts.table.renamed.get(name) {
        return Some(Some(path.clone()));
    }
    if facts.table.unconvertible.iter().any(|f| f == name) {
        return Some(None);
    }
    if let Some(found) = facts.first_match(name) {
        let (regex, pattern) = (facts.pattern(found), &facts.table.pattern[found]);
        if let Some(captures) = regex.captures(name.as_bytes()) {
            let path = pattern
                .path
                .iter()
                .map(|element| {
                    let mut element = element.clone();
                    for group in regex.capture_names().flatten() {
                        if let Some(m) = captures.name(group) {
                            element = element.replace(
                                &format!("{{{group}}}"),
                                &String::from_utf8_lossy(m.as_bytes()),
                            );
                        }
                    }
                    element
                })
                .collect();
            return Some(Some(path));
        }
    }
    None
}
