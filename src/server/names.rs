//! The names completion offers where `completion::place_at` says one is written: the
//! variables a place can read, the functions and resource types the environment has,
//! the keys of Facter's schema, and the keys Hiera's data binds.

use super::scopes::{ScopeKind, Scopes};
use crate::ast::Program;
use crate::env::Environment;
use crate::source::SourceFile;
use std::collections::BTreeMap;

/// A name to offer and what it is.
pub struct Offer {
    pub name: String,
    pub detail: String,
}

fn offer(name: impl Into<String>, detail: impl Into<String>) -> Offer {
    Offer {
        name: name.into(),
        detail: detail.into(),
    }
}

/// The variables code at `offset` can read without naming a class: the parameters of
/// the definitions and lambdas around it, what is assigned before it in its scope and
/// the scopes around it, and Puppet's own (`$facts`, `$trusted`, `$server_facts`).
pub fn variables_at(source: &SourceFile, program: &Program, offset: u32) -> Vec<Offer> {
    let scopes = Scopes::of(program);
    let chain = scopes.chain(scopes.innermost_at(offset));
    let mut found: BTreeMap<String, String> = BTreeMap::new();
    for &scope in &chain {
        let whose = match scopes.scopes[scope].kind {
            ScopeKind::Class => "the class",
            ScopeKind::Define => "the defined type",
            ScopeKind::Function => "the function",
            ScopeKind::Lambda => "the lambda",
            ScopeKind::Node => continue,
        };
        for p in scopes.scopes[scope].params {
            found
                .entry(p.name.name.clone())
                .or_insert_with(|| format!("parameter of {whose}"));
        }
    }
    for assigned in &scopes.assigned {
        let visible = assigned.scope.is_none_or(|s| chain.contains(&s));
        let set_before = assigned.assignment.is_some_and(|a| a.span.end <= offset);
        if visible && set_before {
            let line = source.position(assigned.variable.span.start).line;
            found
                .entry(assigned.name.to_string())
                .or_insert_with(|| format!("assigned on line {line}"));
        }
    }
    for (name, detail) in [
        ("facts", "the node's facts"),
        ("trusted", "the node's certificate data"),
        ("server_facts", "the server's facts"),
    ] {
        found.entry(name.into()).or_insert_with(|| detail.into());
    }
    found
        .into_iter()
        .map(|(name, detail)| offer(name, detail))
        .collect()
}

/// The variables of class `class` another scope reads as `$class::name`.
pub fn class_variables(env: &Environment, class: &str) -> Vec<Offer> {
    let Some(definition) = env.class(class) else {
        return Vec::new();
    };
    let mut found: BTreeMap<String, String> = BTreeMap::new();
    for p in definition.params.iter().flatten() {
        found.insert(p.name.name.clone(), format!("parameter of class {class}"));
    }
    for v in definition.variables.iter().flatten() {
        found
            .entry(v.clone())
            .or_insert_with(|| format!("variable of class {class}"));
    }
    found
        .into_iter()
        .map(|(name, detail)| offer(format!("{class}::{name}"), detail))
        .collect()
}

/// The functions a call can name: Puppet's own, and those the modules autoload (in
/// Puppet, `functions/**/*.pp`; in Ruby, `lib/puppet/functions/**/*.rb` and
/// `lib/puppet/parser/functions/*.rb`).
pub fn functions(env: &Environment) -> Vec<Offer> {
    let mut found: BTreeMap<String, String> = crate::builtin::functions::names()
        .map(|name| (name.to_string(), "Puppet's function".to_string()))
        .collect();
    for (module, folder) in env.modules() {
        for (name, detail) in [
            (folder.join("functions"), "function of module"),
            (
                folder.join("lib/puppet/functions"),
                "Ruby function of module",
            ),
            (
                folder.join("lib/puppet/parser/functions"),
                "Ruby 3.x function of module",
            ),
        ]
        .iter()
        .flat_map(|(root, detail)| {
            super::completion::autoloaded(root, &["pp", "rb"])
                .into_iter()
                .map(move |name| (name, *detail))
        }) {
            // A Puppet function's file in `functions/` is named inside its module.
            let name = if detail == "function of module" {
                format!("{module}::{name}")
            } else {
                name
            };
            found
                .entry(name)
                .or_insert_with(|| format!("{detail} {module}"));
        }
    }
    found
        .into_iter()
        .map(|(name, detail)| offer(name, detail))
        .collect()
}

/// The resource types a declaration can name starting with `prefix`: Puppet's own,
/// the modules' written in Ruby (`lib/puppet/type/*.rb`), and their defined types
/// (the autoloaded manifests that define one, read for the first `limit` the prefix
/// leaves: each is a file the index may have to read).
pub fn resource_types(env: &Environment, prefix: &str, limit: usize) -> Vec<Offer> {
    let mut found: BTreeMap<String, String> = crate::builtin::resource_type_names()
        .filter(|name| name.starts_with(prefix))
        .map(|name| (name.to_string(), "Puppet's resource type".to_string()))
        .collect();
    let modules = env.modules();
    for (module, folder) in &modules {
        for name in super::completion::autoloaded(&folder.join("lib/puppet/type"), &["rb"]) {
            if name.starts_with(prefix) {
                found
                    .entry(name)
                    .or_insert_with(|| format!("resource type of module {module}"));
            }
        }
    }
    let candidates: Vec<(String, String)> = super::completion::autoloaded_classes(&modules)
        .into_iter()
        .filter(|(name, _)| name.starts_with(prefix))
        .take(limit)
        .collect();
    for (name, module) in candidates {
        if env.define(&name).is_some() {
            found
                .entry(name)
                .or_insert_with(|| format!("defined type of module {module}"));
        }
    }
    found
        .into_iter()
        .map(|(name, detail)| offer(name, detail))
        .collect()
}

/// The keys Facter's schema lists under the fact path `path` (the top-level facts for
/// an empty path).
pub fn fact_keys(path: &[String]) -> Vec<Offer> {
    let joined = path.join(".");
    let mut keys: Vec<Offer> = crate::builtin::facts::children(&joined)
        .map(|key| {
            let full = if joined.is_empty() {
                key.to_string()
            } else {
                format!("{joined}.{key}")
            };
            let detail = crate::builtin::facts::fact(&full)
                .map_or_else(|| "fact".to_string(), |f| f.type_name.clone());
            offer(key, detail)
        })
        .collect();
    keys.sort_by(|a, b| a.name.cmp(&b.name));
    keys.dedup_by(|a, b| a.name == b.name);
    keys
}

/// The keys the environment's Hiera data binds.
pub fn hiera_keys(env: &Environment) -> Vec<Offer> {
    let mut keys: Vec<String> = env.hiera().keys().map(str::to_string).collect();
    keys.sort();
    keys.into_iter()
        .map(|key| offer(key, "Hiera key"))
        .collect()
}
