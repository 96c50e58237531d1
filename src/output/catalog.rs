//! `pupcheck catalog`: a listed catalog as JSON shaped like Puppet's catalog JSON, or as
//! a table; and what changes between the catalogs of two trees.
//!
//! JSON: `{"name", "resources": [{"type", "title", "parameters", "file", "line",
//! "exported", "virtual", "certain"}], "edges": [{"source", "target"}]}`. A value known
//! only by its type is written `{"__ptype": "Integer[1, 65535]"}` (a title too), a
//! resource reference as Puppet writes it (`"Package[curl]"`), `undef` parameters are
//! left out as Puppet leaves them out; `certain` is false for a resource the catalog
//! holds on some paths of the code only.

use crate::ast::ResourceForm;
use crate::catalog::listing::{ListedResource, Listing, Title};
use crate::eval::AbstractValue;
use crate::types::{Kind, Value};
use serde_json::{json, Map, Value as Json};
use std::fmt::Write;

/// A value as catalog JSON holds it.
fn value_json(value: &Value) -> Json {
    match value {
        Value::Undef => Json::Null,
        Value::Default => json!("default"),
        Value::Bool(b) => json!(b),
        Value::Integer(i) => json!(i),
        Value::Float(f) => json!(f),
        Value::String(s) | Value::Uri(s) => json!(&**s),
        Value::Array(items) => Json::Array(items.iter().map(value_json).collect()),
        Value::Hash(map) => {
            let mut out = Map::new();
            for (k, v) in map.iter() {
                let key = match k {
                    Value::String(s) => s.to_string(),
                    other => other.to_string(),
                };
                out.insert(key, value_json(v));
            }
            Json::Object(out)
        }
        Value::Type(ty) => match ty.kind() {
            Kind::Resource {
                type_name: Some(_),
                title: Some(_),
            }
            | Kind::Class(Some(_)) => json!(ty.to_string()),
            _ => json!({ "__ptype": format!("Type[{ty}]") }),
        },
        Value::Sensitive(_) => json!({ "__ptype": "Sensitive" }),
        other => json!(other.to_string()),
    }
}

fn abstract_json(value: Option<&AbstractValue>) -> Json {
    match value {
        Some(AbstractValue::Known(v)) => value_json(v),
        Some(AbstractValue::Inferred(ty)) => json!({ "__ptype": ty.to_string() }),
        None => json!({ "__ptype": "Any" }),
    }
}

fn is_undef(value: &Option<AbstractValue>) -> bool {
    matches!(value, Some(AbstractValue::Known(Value::Undef)))
}

fn title_json(title: &Title) -> Json {
    match title {
        Title::Known(t) => json!(t),
        Title::Unknown(value) => abstract_json(value.as_ref()),
    }
}

fn parameters_json(resource: &ListedResource) -> Json {
    let mut parameters = Map::new();
    for (name, value) in &resource.parameters {
        if !is_undef(value) {
            parameters.insert(name.clone(), abstract_json(value.as_ref()));
        }
    }
    Json::Object(parameters)
}

/// One listed catalog as JSON.
pub fn listing_json(listing: &Listing) -> Json {
    let resources: Vec<Json> = listing
        .resources
        .iter()
        .map(|r| {
            json!({
                "type": r.type_name,
                "title": title_json(&r.title),
                "parameters": parameters_json(r),
                "file": r.file.display().to_string(),
                "line": r.line,
                "exported": r.form == ResourceForm::Exported,
                "virtual": r.form == ResourceForm::Virtual,
                "certain": r.certain,
            })
        })
        .collect();
    let edges: Vec<Json> = listing
        .edges
        .iter()
        .map(|(source, target)| json!({ "source": source, "target": target }))
        .collect();
    json!({ "name": listing.name, "resources": resources, "edges": edges })
}

/// A parameter's value as the table shows it.
fn shown(value: Option<&AbstractValue>) -> String {
    match abstract_json(value) {
        Json::Object(o) if o.len() == 1 && o.contains_key("__ptype") => {
            format!("<{}>", o["__ptype"].as_str().unwrap_or("Any"))
        }
        Json::String(s) => s,
        other => other.to_string(),
    }
}

/// The listed catalogs as a table: each resource with where it is declared, then its
/// parameters, one per line.
pub fn listings_table(listings: &[Listing]) -> String {
    let mut out = String::new();
    for listing in listings {
        let certain = listing.resources.iter().filter(|r| r.certain).count();
        let _ = writeln!(
            out,
            "{}: {} resources ({} on some paths only)",
            listing.name,
            listing.resources.len(),
            listing.resources.len() - certain
        );
        for r in &listing.resources {
            let mark = match (r.certain, r.form) {
                (_, ResourceForm::Exported) => "@@",
                (_, ResourceForm::Virtual) => "@ ",
                (false, _) => "? ",
                (true, _) => "  ",
            };
            let _ = writeln!(
                out,
                "  {mark}{:<50} {}:{}",
                reference(r),
                r.file.display(),
                r.line
            );
            for (name, value) in &r.parameters {
                if !is_undef(value) {
                    let _ = writeln!(out, "        {name} => {}", shown(value.as_ref()));
                }
            }
        }
        out.push('\n');
    }
    out.push_str(
        "(? on some paths only, @ virtual, @@ exported; <T> a value known only by its type T)\n",
    );
    out
}

fn reference(r: &ListedResource) -> String {
    match &r.title {
        Title::Known(t) => format!("{}[{t}]", r.type_name),
        Title::Unknown(v) => format!("{}[{}]", r.type_name, shown(v.as_ref())),
    }
}

/// What changed from one tree's catalogs to another's.
#[derive(Debug, Default)]
pub struct CatalogDiff {
    /// Per catalog (by name): resources added, removed, and changed (each changed
    /// parameter: name, before, after).
    pub catalogs: Vec<CatalogChange>,
}

#[derive(Debug)]
pub struct CatalogChange {
    pub name: String,
    /// Only in the new tree's catalogs (or the catalog is new).
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<(String, Vec<ParameterChange>)>,
}

/// A parameter whose value differs (`(absent)` where a side does not give it).
#[derive(Debug)]
pub struct ParameterChange {
    pub name: String,
    pub before: String,
    pub after: String,
}

impl CatalogChange {
    fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// The resources of a listing by reference, with their parameters as shown (a resource
/// whose title is not known is keyed by its type and place in the listing's order).
fn keyed(listing: &Listing) -> indexmap::IndexMap<String, Vec<(String, String)>> {
    let mut out = indexmap::IndexMap::new();
    for r in &listing.resources {
        let mut key = reference(r);
        if !r.certain {
            key.push_str(" (some paths)");
        }
        let mut parameters: Vec<(String, String)> = r
            .parameters
            .iter()
            .filter(|(_, v)| !is_undef(v))
            .map(|(n, v)| (n.clone(), shown(v.as_ref())))
            .collect();
        parameters.sort();
        out.insert(key, parameters);
    }
    out
}

/// Compares the catalogs of a base tree with those of a tree, by catalog name.
pub fn diff(base: &[Listing], new: &[Listing]) -> CatalogDiff {
    let mut names: Vec<&str> = new.iter().map(|l| l.name.as_str()).collect();
    for l in base {
        if !names.contains(&l.name.as_str()) {
            names.push(&l.name);
        }
    }
    let empty = indexmap::IndexMap::new();
    let mut catalogs = Vec::new();
    for name in names {
        let before = base.iter().find(|l| l.name == name).map(keyed);
        let after = new.iter().find(|l| l.name == name).map(keyed);
        let (before, after) = (
            before.as_ref().unwrap_or(&empty),
            after.as_ref().unwrap_or(&empty),
        );
        let mut change = CatalogChange {
            name: name.to_string(),
            added: Vec::new(),
            removed: Vec::new(),
            changed: Vec::new(),
        };
        for (key, parameters) in after {
            match before.get(key) {
                None => change.added.push(key.clone()),
                Some(old) if old != parameters => change
                    .changed
                    .push((key.clone(), changed_parameters(old, parameters))),
                Some(_) => {}
            }
        }
        change.removed = before
            .keys()
            .filter(|k| !after.contains_key(*k))
            .cloned()
            .collect();
        if !change.is_empty() {
            catalogs.push(change);
        }
    }
    CatalogDiff { catalogs }
}

fn changed_parameters(old: &[(String, String)], new: &[(String, String)]) -> Vec<ParameterChange> {
    let find = |list: &[(String, String)], name: &str| {
        list.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    };
    let mut names: Vec<&str> = new.iter().map(|(n, _)| n.as_str()).collect();
    names.extend(old.iter().map(|(n, _)| n.as_str()));
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter_map(|name| {
            let (a, b) = (find(old, name), find(new, name));
            (a != b).then(|| {
                let absent = || "(absent)".to_string();
                ParameterChange {
                    name: name.to_string(),
                    before: a.unwrap_or_else(absent),
                    after: b.unwrap_or_else(absent),
                }
            })
        })
        .collect()
}

impl CatalogDiff {
    pub fn is_empty(&self) -> bool {
        self.catalogs.is_empty()
    }

    pub fn table(&self) -> String {
        let mut out = String::new();
        if self.catalogs.is_empty() {
            out.push_str("No catalog changes.\n");
        }
        for c in &self.catalogs {
            let _ = writeln!(
                out,
                "{}: {} added, {} removed, {} changed",
                c.name,
                c.added.len(),
                c.removed.len(),
                c.changed.len()
            );
            for r in &c.added {
                let _ = writeln!(out, "  + {r}");
            }
            for r in &c.removed {
                let _ = writeln!(out, "  - {r}");
            }
            for (r, parameters) in &c.changed {
                let _ = writeln!(out, "  ~ {r}");
                for p in parameters {
                    let _ = writeln!(out, "      {}: {} -> {}", p.name, p.before, p.after);
                }
            }
        }
        out
    }

    pub fn json(&self) -> Json {
        let catalogs: Vec<Json> = self
            .catalogs
            .iter()
            .map(|c| {
                let changed: Vec<Json> = c
                    .changed
                    .iter()
                    .map(|(r, parameters)| {
                        let parameters: Vec<Json> = parameters
                            .iter()
                            .map(
                                |p| json!({ "name": p.name, "before": p.before, "after": p.after }),
                            )
                            .collect();
                        json!({ "resource": r, "parameters": parameters })
                    })
                    .collect();
                json!({
                    "name": c.name,
                    "added": c.added,
                    "removed": c.removed,
                    "changed": changed,
                })
            })
            .collect();
        json!({ "catalogs": catalogs })
    }
}
