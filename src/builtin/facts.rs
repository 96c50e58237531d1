//! The facts Facter and Puppet define, as data (`data/facts.toml`, generated from
//! Facter's own schema by `scripts/puppet/facts.rb`): each fact and each key of a
//! structured fact by its dotted path (`os.release.major`), with its Puppet type and
//! whether it is a map that holds only the keys listed under it.

use crate::ast::{Expr, ExprKind};
use crate::types::{t, Type};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

#[derive(Debug, Deserialize)]
pub struct Fact {
    /// Its Puppet type: `String`, `Integer`, `Hash`, ...
    #[serde(rename = "type")]
    pub type_name: String,
    /// A map that holds only the keys listed under it.
    #[serde(default)]
    pub closed: bool,
    /// A fact Facter hides by default (a legacy one).
    #[serde(default)]
    pub hidden: bool,
}

#[derive(Debug, Deserialize)]
struct Pattern {
    pattern: String,
    #[serde(rename = "type")]
    type_name: String,
}

#[derive(Debug, Deserialize)]
struct TakenValues {
    fact: String,
    values: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Table {
    puppet_facts: Vec<String>,
    /// Values some node certainly reports, by fact.
    taken_values: Vec<TakenValues>,
    patterns: Vec<Pattern>,
    facts: BTreeMap<String, Fact>,
}

type Facts = super::WithPatterns<Table>;

/// Reads the table now (`super::read_tables_in_background`).
pub(super) fn read_table() {
    facts();
}

fn facts() -> &'static Facts {
    static FACTS: OnceLock<Facts> = OnceLock::new();
    FACTS.get_or_init(|| {
        Facts::read(crate::builtin_data::Table::Facts, |t| {
            t.patterns.iter().map(|p| p.pattern.as_str()).collect()
        })
    })
}

/// The keys of a `$facts[...]...` access, outermost last (`[]` for `$facts` itself);
/// `None` for anything else, or keys not written as strings.
pub fn facts_path(expr: &Expr) -> Option<Vec<String>> {
    match &expr.kind {
        ExprKind::Variable(v) if v == "facts" || v == "::facts" => Some(Vec::new()),
        ExprKind::Access { object, args } => {
            let [key] = args.as_slice() else {
                return None;
            };
            let ExprKind::String(key) = &key.kind else {
                return None;
            };
            let mut path = facts_path(object)?;
            path.push(key.value.clone());
            Some(path)
        }
        _ => None,
    }
}

/// The Puppet type of what Facter gives for the fact or key at `path` (`os.release.major`)
/// on a node that has it; `None` where the schema does not say. (A node may lack a
/// fact: its value is then undef.)
pub fn value_type(path: &[String]) -> Option<Type> {
    let facts = facts();
    let type_name = match path {
        [] => return None,
        [name] => match facts.table.facts.get(name.as_str()) {
            Some(fact) => fact.type_name.as_str(),
            None => {
                let found = facts.first_match(name)?;
                facts.table.patterns[found].type_name.as_str()
            }
        },
        _ if path.iter().any(|key| key.contains('.')) => return None,
        _ => fact(&path.join("."))?.type_name.as_str(),
    };
    Some(match type_name {
        "String" => t::string(),
        "Integer" => t::integer(),
        "Float" => t::float(),
        "Boolean" => t::boolean(),
        "Array" => t::array(),
        "Hash" => t::hash(),
        _ => return None,
    })
}

/// Values some node certainly reports for the fact at `path` (`os.family`: 'RedHat',
/// 'Debian', ...): a branch on one of them is code Puppet runs somewhere. Empty for a
/// fact whose values pupcheck does not list.
pub fn taken_values(path: &str) -> &'static [String] {
    facts()
        .table
        .taken_values
        .iter()
        .find(|t| t.fact == path)
        .map_or(&[], |t| t.values.as_slice())
}

/// The fact or key at `path` (`os.family`), if Facter's schema has it.
pub fn fact(path: &str) -> Option<&'static Fact> {
    facts().table.facts.get(path)
}

/// Whether a top-level fact `name` is one Facter or Puppet defines (by name or by a
/// pattern such as `ipaddress_<interface>`).
pub fn is_known(name: &str) -> bool {
    let facts = facts();
    facts.table.facts.contains_key(name)
        || facts.table.puppet_facts.iter().any(|f| f == name)
        || facts.first_match(name).is_some()
}

/// The keys listed under `path` (the top-level facts for `""`).
pub fn children(path: &str) -> impl Iterator<Item = &'static str> + '_ {
    let facts = facts();
    let prefix = if path.is_empty() {
        String::new()
    } else {
        format!("{path}.")
    };
    facts
        .table
        .facts
        .keys()
        .filter_map(move |k| k.strip_prefix(prefix.as_str()))
        .filter(|rest| !rest.contains('.'))
        .chain(
            path.is_empty()
                .then_some(facts.table.puppet_facts.iter().map(String::as_str))
                .into_iter()
                .flatten(),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_has_facters_structured_facts() {
        assert!(fact("os").is_some_and(|f| f.closed && f.type_name == "Hash"));
        assert_eq!(
            fact("os.release.major").map(|f| f.type_name.as_str()),
            Some("String")
        );
        assert!(is_known("ipaddress_eth0") && is_known("clientcert") && !is_known("osfamly"));
        assert!(children("os").any(|c| c == "family"));
        assert!(children("").any(|c| c == "osfamily"));
    }
}
