//! `lookup_options`: how Hiera merges and converts the values of a key. Puppet merges
//! the `lookup_options` of every layer and level a node reads (a module's apply to its
//! own keys only), then takes the key's own entry, or else the first pattern
//! (`'^profile::.*'`) that matches it. pupcheck knows a key's options when every data
//! file that can give them gives the same, in a file every node reads; anything that
//! differs by node, or that it cannot read, leaves the options unknown.

use super::merge::Merge;
use super::{yaml, Hiera};
use crate::types::Value;

/// The options of one key.
#[derive(Debug, Clone, PartialEq)]
pub struct LookupOptions {
    pub merge: Merge,
    /// `convert_to`: the type's name and the arguments given to its `new` after the
    /// value.
    pub convert_to: Option<(String, Vec<Value>)>,
}

impl LookupOptions {
    pub const NONE: LookupOptions = LookupOptions {
        merge: Merge::First,
        convert_to: None,
    };

    /// The options an entry of `lookup_options` gives (`{'merge' => 'unique'}`), if
    /// pupcheck models them all.
    fn from_value(value: &Value) -> Option<LookupOptions> {
        let Value::Hash(entries) = value else {
            return None;
        };
        let mut options = LookupOptions::NONE;
        for (name, v) in entries.iter() {
            match name {
                Value::String(n) if &**n == "merge" => options.merge = Merge::from_value(v)?,
                Value::String(n) if &**n == "convert_to" => {
                    options.convert_to = Some(match v {
                        Value::String(t) => (t.to_string(), Vec::new()),
                        Value::Array(items) => match items.split_first()? {
                            (Value::String(t), args) => (t.to_string(), args.to_vec()),
                            _ => return None,
                        },
                        _ => return None,
                    })
                }
                _ => return None,
            }
        }
        Some(options)
    }
}

impl Hiera {
    /// The options of `key`: `Some(LookupOptions::NONE)` where no data gives it any;
    /// `None` when pupcheck cannot tell which apply (they differ by node, or a file's
    /// `lookup_options` is not one it reads).
    pub fn lookup_options(&self, key: &str) -> Option<LookupOptions> {
        // Each file's entry for the key (`Some(None)`: a file with lookup_options
        // that says nothing of it), exact entries before patterns.
        let mut exact: Vec<(bool, Value)> = Vec::new();
        let mut patterned: Vec<(bool, Value)> = Vec::new();
        for file in self.binding_files("lookup_options") {
            if !file.serves(key) {
                continue;
            }
            if file.encrypted {
                return None;
            }
            let Value::Hash(entries) = yaml::value(file.value_of("lookup_options")?)? else {
                return None;
            };
            for (name, options) in entries.iter() {
                let Value::String(name) = name else {
                    return None;
                };
                if &**name == key {
                    exact.push((file.everywhere, options.clone()));
                } else if name.starts_with('^') {
                    match crate::types::model::Regex::new(name).try_match(key) {
                        Some(true) => patterned.push((file.everywhere, options.clone())),
                        Some(false) => {}
                        None => return None,
                    }
                }
            }
        }
        let entries = if exact.is_empty() { patterned } else { exact };
        let Some((_, first)) = entries.first() else {
            return Some(LookupOptions::NONE);
        };
        // Options some nodes do not read, or that differ between files, differ by node.
        if entries
            .iter()
            .any(|(everywhere, options)| !everywhere || options != first)
        {
            return None;
        }
        LookupOptions::from_value(first)
    }
}
