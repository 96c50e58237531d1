//! Hiera's merge strategies on known values, as Puppet 7 merges the values a lookup
//! finds at several levels (`Puppet::Pops::MergeStrategy` and the `deep_merge` gem it
//! calls). The values come highest priority first. A merge pupcheck does not model
//! (deep merge options that reorder or knock out elements, a hash merge of a value that
//! is not a hash) gives `None`: the caller then judges nothing.

use super::yaml::{self, Node};
use super::{DataFile, Hiera};
use crate::types::Value;
use indexmap::IndexMap;
use std::sync::Arc;

/// A value a lookup may give some nodes: the value `file` binds the key to, merged
/// with what the files every node reads give.
#[derive(Debug)]
pub struct Found<'a> {
    /// The data file whose value this is (for the nodes of a merge, the one file
    /// those nodes read besides the files every node reads; for every node, the first
    /// of those files).
    pub file: &'a DataFile,
    pub node: &'a Node,
    /// The value the lookup gives; `None` where pupcheck does not know it (an
    /// interpolation, hiera-eyaml's values, a merge it does not model).
    pub value: Option<Value>,
    /// The other files merged into the value.
    pub merged_with: Vec<&'a DataFile>,
    /// Whether every node that binds the key gets this value (all its files are read
    /// for every node).
    pub everywhere: bool,
}

impl Found<'_> {
    /// The files merged into the value, said in a note (`None`: none).
    pub fn merged_note(&self) -> Option<String> {
        if self.merged_with.is_empty() {
            return None;
        }
        let others: Vec<String> = self
            .merged_with
            .iter()
            .map(|other| crate::source::shown_path(&other.path))
            .collect();
        Some(format!("merged with {}", others.join(", ")))
    }
}

impl Hiera {
    /// The values a lookup of `key` merged by `merge` may give. First found: the value of
    /// each file some node takes it from. A merge: for the files every node reads,
    /// their merged value; for each other file, its value merged with theirs, the
    /// value of nodes that read it and none of the other files that vary by node.
    pub fn found<'a>(&'a self, key: &'a str, merge: &Merge) -> Vec<Found<'a>> {
        if *merge == Merge::First {
            return self
                .candidates(key)
                .map(|(file, node)| Found {
                    file,
                    node,
                    value: (!file.encrypted).then(|| yaml::value(node)).flatten(),
                    merged_with: Vec::new(),
                    everywhere: file.everywhere,
                })
                .collect();
        }
        let files: Vec<(&DataFile, &Node)> = self
            .binding_files(key)
            .filter(|file| file.serves(key))
            .filter_map(|file| Some((file, file.value_of(key)?)))
            .collect();
        let known = |file: &DataFile, node: &Node| match yaml::value(node) {
            Some(Value::Undef) | None => None,
            Some(_) if file.encrypted => None,
            value => value,
        };
        let mut out = Vec::new();
        let mut base_reported = false;
        for &(file, node) in &files {
            if file.everywhere && std::mem::replace(&mut base_reported, true) {
                continue;
            }
            let merged: Vec<(&DataFile, &Node)> = files
                .iter()
                .copied()
                .filter(|(other, _)| other.everywhere || std::ptr::eq(*other, file))
                .collect();
            let value = merged
                .iter()
                .map(|(f, n)| known(f, n))
                .collect::<Option<Vec<Value>>>()
                .and_then(|values| merge.merge(&values));
            out.push(Found {
                file,
                node,
                value,
                merged_with: merged
                    .iter()
                    .map(|(f, _)| *f)
                    .filter(|f| !std::ptr::eq(*f, file))
                    .collect(),
                everywhere: file.everywhere,
            });
        }
        out
    }
}

/// A merge strategy: `lookup_options`' `merge`, or `lookup()`'s third argument.
#[derive(Debug, Clone, PartialEq)]
pub enum Merge {
    /// `first` (and Puppet's default): the first value found.
    First,
    /// `unique`: every value found, scalars as one-element arrays, arrays flattened,
    /// without duplicates.
    Unique,
    /// `hash`: the hashes found, a key's value taken from the first that has it.
    Hash,
    /// `deep`: the hashes found merged recursively, arrays joined.
    Deep(DeepOptions),
}

/// The options of a deep merge pupcheck models (`knockout_prefix` it does not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DeepOptions {
    /// `sort_merged_arrays`: arrays merged together are sorted.
    pub sort_merged_arrays: bool,
    /// `merge_hash_arrays`: two arrays of hashes are merged element by element.
    pub merge_hash_arrays: bool,
}

impl Merge {
    /// The strategy's name in `hiera.yaml` and `lookup()`.
    pub fn name(&self) -> &'static str {
        match self {
            Merge::First => "first",
            Merge::Unique => "unique",
            Merge::Hash => "hash",
            Merge::Deep(_) => "deep",
        }
    }

    /// The strategy a merge value names: `'unique'`, or `{'strategy' => 'deep', ...}`.
    /// `None` for one pupcheck does not model (a deep merge's `knockout_prefix`) or that
    /// Puppet rejects.
    pub fn from_value(value: &Value) -> Option<Merge> {
        let named = |name: &str| match name {
            "first" => Some(Merge::First),
            "unique" => Some(Merge::Unique),
            "hash" => Some(Merge::Hash),
            "deep" => Some(Merge::Deep(DeepOptions::default())),
            _ => None,
        };
        match value {
            Value::String(name) => named(name),
            Value::Hash(options) => {
                let mut strategy = named(match options.get(&Value::string("strategy"))? {
                    Value::String(s) => s,
                    _ => return None,
                })?;
                for (name, value) in options.iter() {
                    let Value::String(name) = name else {
                        return None;
                    };
                    match (&**name, &mut strategy, value) {
                        ("strategy", ..) | ("merge_debug", Merge::Deep(_), Value::Bool(_)) => {}
                        ("sort_merged_arrays", Merge::Deep(deep), Value::Bool(on)) => {
                            deep.sort_merged_arrays = *on
                        }
                        ("merge_hash_arrays", Merge::Deep(deep), Value::Bool(on)) => {
                            deep.merge_hash_arrays = *on
                        }
                        _ => return None,
                    }
                }
                Some(strategy)
            }
            _ => None,
        }
    }

    /// The value a lookup gives when it finds `found` (highest priority first, at least
    /// one), or `None` when pupcheck does not know it.
    pub fn merge(&self, found: &[Value]) -> Option<Value> {
        let (first, rest) = found.split_first()?;
        match self {
            Merge::First => Some(first.clone()),
            Merge::Unique => {
                // Puppet's lookup turns the first value found into an array and joins
                // the others to it (a hash is not a value `unique` merges).
                // (A set keeps the join linear: data files may hold long arrays.)
                let mut elements = indexmap::IndexSet::new();
                for value in found {
                    if contains_hash(value) {
                        return None;
                    }
                    let mut flat = Vec::new();
                    flatten_into(value, &mut flat);
                    if found.len() == 1 {
                        return Some(Value::array(flat));
                    }
                    elements.extend(flat);
                }
                Some(Value::array(elements.into_iter().collect()))
            }
            // A single value is the lookup's as it is; several must all be hashes.
            Merge::Hash if rest.is_empty() => Some(first.clone()),
            Merge::Hash => {
                let mut merged: IndexMap<Value, Value> = IndexMap::new();
                for value in found.iter().rev() {
                    // Puppet asserts each is a `Hash[String, Data]` before merging.
                    let Value::Hash(entries) = value else {
                        return None;
                    };
                    if !entries.keys().all(|k| matches!(k, Value::String(_))) {
                        return None;
                    }
                    for (k, v) in entries.iter() {
                        merged.insert(k.clone(), v.clone());
                    }
                }
                Some(Value::Hash(Arc::new(merged)))
            }
            Merge::Deep(options) => {
                let mut merged = first.clone();
                for lower in rest {
                    merged = deep_merge(&merged, lower, options)?;
                }
                Some(merged)
            }
        }
    }
}

fn contains_hash(value: &Value) -> bool {
    match value {
        Value::Hash(_) => true,
        Value::Array(items) => items.iter().any(contains_hash),
        _ => false,
    }
}

fn flatten_into(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| flatten_into(item, out)),
        other => out.push(other.clone()),
    }
}

/// `deep_merge!(source, dest)` with Puppet's options (unmergeables overwritten):
/// `source` has the higher priority.
fn deep_merge(source: &Value, dest: &Value, options: &DeepOptions) -> Option<Value> {
    match (source, dest) {
        (Value::Undef, _) => Some(dest.clone()),
        (_, Value::Undef | Value::Bool(false)) => Some(source.clone()),
        (Value::Hash(entries), Value::Hash(into)) => {
            let mut merged = (**into).clone();
            for (k, v) in entries.iter() {
                let value = match merged.get(k) {
                    Some(existing) if !matches!(existing, Value::Undef | Value::Bool(false)) => {
                        deep_merge(v, existing, options)?
                    }
                    _ => deep_merge(v, v, options)?,
                };
                merged.insert(k.clone(), value);
            }
            Some(Value::Hash(Arc::new(merged)))
        }
        // A hash over anything else replaces it, merged with itself (the gem loops
        // over its keys with the hash as the destination after the first).
        (Value::Hash(entries), _) if entries.is_empty() => Some(dest.clone()),
        (Value::Hash(_), _) => deep_merge(source, source, options),
        (Value::Array(items), Value::Array(into)) => {
            let all_hashes = |list: &[Value]| list.iter().all(|v| matches!(v, Value::Hash(_)));
            let mut merged: Vec<Value> = Vec::new();
            if options.merge_hash_arrays && all_hashes(items) && all_hashes(into) {
                let empty = Value::hash(Vec::new());
                for (at, lower) in into.iter().enumerate() {
                    merged.push(deep_merge(items.get(at).unwrap_or(&empty), lower, options)?);
                }
                merged.extend(items.iter().skip(into.len()).cloned());
            } else {
                let joined: indexmap::IndexSet<&Value> = into.iter().chain(items.iter()).collect();
                merged.extend(joined.into_iter().cloned());
            }
            if options.sort_merged_arrays {
                sort(&mut merged)?;
            }
            Some(Value::array(merged))
        }
        _ => Some(source.clone()),
    }
}

/// Ruby's `sort!` of an array of strings or of numbers; `None` for another mix (which
/// Ruby cannot compare).
fn sort(items: &mut [Value]) -> Option<()> {
    if items.iter().all(|v| matches!(v, Value::String(_))) {
        items.sort_by(|a, b| match (a, b) {
            (Value::String(a), Value::String(b)) => a.as_bytes().cmp(b.as_bytes()),
            _ => std::cmp::Ordering::Equal,
        });
        return Some(());
    }
    if items.iter().all(|v| matches!(v, Value::Integer(_))) {
        items.sort_by_key(|v| match v {
            Value::Integer(i) => *i,
            _ => 0,
        });
        return Some(());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::string(text)
    }

    fn hash(entries: Vec<(&str, Value)>) -> Value {
        Value::hash(entries.into_iter().map(|(k, v)| (s(k), v)).collect())
    }

    #[test]
    fn unique_wraps_scalars_flattens_and_drops_duplicates() {
        assert_eq!(
            Merge::Unique.merge(&[s("a")]),
            Some(Value::array(vec![s("a")]))
        );
        let merged = Merge::Unique.merge(&[
            Value::array(vec![s("a"), Value::array(vec![s("b")])]),
            s("a"),
            s("c"),
        ]);
        assert_eq!(merged, Some(Value::array(vec![s("a"), s("b"), s("c")])));
        assert_eq!(Merge::Unique.merge(&[hash(vec![("a", s("b"))])]), None);
    }

    #[test]
    fn hash_merge_takes_each_key_from_the_first_value_that_has_it() {
        let merged = Merge::Hash.merge(&[
            hash(vec![("a", Value::Integer(1))]),
            hash(vec![("a", Value::Integer(2)), ("b", Value::Integer(3))]),
        ]);
        assert_eq!(
            merged,
            Some(hash(vec![
                ("a", Value::Integer(1)),
                ("b", Value::Integer(3))
            ]))
        );
        assert_eq!(Merge::Hash.merge(&[s("x")]), Some(s("x")));
        assert_eq!(Merge::Hash.merge(&[s("x"), hash(vec![])]), None);
    }

    #[test]
    fn deep_merge_recurses_into_hashes_and_joins_arrays_lower_priority_first() {
        let high = hash(vec![(
            "a",
            hash(vec![
                ("b", Value::Integer(1)),
                ("l", Value::array(vec![s("x")])),
            ]),
        )]);
        let low = hash(vec![(
            "a",
            hash(vec![
                ("c", Value::Integer(2)),
                ("l", Value::array(vec![s("y"), s("x")])),
            ]),
        )]);
        let merged = Merge::Deep(DeepOptions::default())
            .merge(&[high, low])
            .unwrap();
        let expected = hash(vec![(
            "a",
            hash(vec![
                ("c", Value::Integer(2)),
                ("l", Value::array(vec![s("y"), s("x")])),
                ("b", Value::Integer(1)),
            ]),
        )]);
        assert_eq!(merged, expected);
    }

    #[test]
    fn strategies_are_read_from_names_and_hashes() {
        assert_eq!(
            Merge::from_value(&s("deep")),
            Some(Merge::Deep(DeepOptions::default()))
        );
        assert_eq!(
            Merge::from_value(&hash(vec![("strategy", s("hash"))])),
            Some(Merge::Hash)
        );
        let knockout = hash(vec![("strategy", s("deep")), ("knockout_prefix", s("--"))]);
        assert_eq!(Merge::from_value(&knockout), None);
        let sorted = hash(vec![
            ("strategy", s("deep")),
            ("sort_merged_arrays", Value::Bool(true)),
        ]);
        assert_eq!(
            Merge::from_value(&sorted),
            Some(Merge::Deep(DeepOptions {
                sort_merged_arrays: true,
                merge_hash_arrays: false
            }))
        );
        assert_eq!(Merge::from_value(&s("union")), None);
    }
}
