use crate::analysis::code_map::rest_of_line;
use crate::diagnostics::Diagnostic;
use crate::builtin::hiera::v5;
use crate::hiera::yaml::{self, Node, NodeKind};
use crate::hiera::DataFile;
use crate::types::mismatch::{describe_value_parts, PathElem};
use crate::types::{instance_of, Value};

declare_rule! {
    /// ## What it does
    /// Checks the `hiera.yaml` of the environment and of each module as Puppet 7 checks a
    /// version 5 configuration before its first lookup: the whole file against the type
    /// Puppet's `HieraConfigV5` declares (unknown keys, a level without a `name`, a path that is
    /// not a string), then each level: one data provider function (`data_hash`, `lookup_key`,
    /// `data_dig`), one way of naming its files (`path`, `paths`, `glob`, ...), no option Puppet
    /// keeps for itself, no `hiera3_backend` outside the global layer, no `default_hierarchy`
    /// outside a module, and no level name used twice. A version other than 3, 4 or 5 is
    /// refused too. Versions 3 and 4 are not judged; YAML syntax errors are `hiera-syntax`'s.
    ///
    /// ## Why it matters
    /// Puppet fails every lookup of the layer ("The Lookup Configuration at '.../hiera.yaml'
    /// has wrong type, entry 'hierarchy' index 0 unrecognized key 'pth'"), so every catalog
    /// that looks up a key there fails to compile.
    ///
    /// ## Example
    /// ```yaml
    /// version: 5
    /// hierarchy:
    ///   - name: 'Per node'
    ///     path: 'nodes/%{trusted.certname}.yaml'
    ///     paths: ['common.yaml']   # only one of path, paths, glob, ... per level
    /// ```
    ///
    /// ## How to fix
    /// Write the level as the message asks; see Puppet's documentation of `hiera.yaml` version 5.
    "hiera-config" (Type, Error)
    "A hiera.yaml that Puppet refuses"
}

/// The findings on one `hiera.yaml`; `shown`: its path as the message names it.
pub fn check_config(file: &DataFile, shown: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Ok(Some(document)) = &file.document else {
        return out;
    };
    let Some(version_node) = entry(document, "version") else {
        // Hiera 3's configuration (or none): Puppet 7 does not refuse it here.
        return out;
    };
    let Some(version) = ruby_to_i(yaml::value_as_written(version_node)) else {
        return out;
    };
    let at = |node: &Node| rest_of_line(&file.text, node.offset);
    match version {
        3 | 4 => return out,
        5 => {}
        other => {
            out.push(RULE.diagnostic(
                at(version_node),
                format!("This runtime does not support hiera.yaml version {other}"),
            ));
            return out;
        }
    }
    let Some(config) = yaml::value_as_written(document).map(with_puppets_defaults) else {
        return out;
    };
    let table = v5();
    if !instance_of(&config, &table.config_type) {
        for (path, part) in describe_value_parts(&table.config_type, &config, &[]) {
            let node = locate(document, &path, &part);
            out.push(RULE.diagnostic(
                at(node),
                format!("The Lookup Configuration at '{shown}' has wrong type, {part}"),
            ));
        }
        return out;
    }
    // An empty `defaults:` is Puppet's own defaults, which name a backend.
    let defaults = entry(document, "defaults").filter(|d| !replaced_by_default(d));
    if let Some(defaults) = defaults {
        if count_keys(defaults, &table.function_keys) > 1 {
            out.push(RULE.diagnostic(
                at(defaults),
                format!(
                    "Only one of {} can be defined in defaults",
                    combine(&table.function_keys)
                ),
            ));
        }
    }
    let in_module = file.module.is_some();
    for list in ["hierarchy", "plan_hierarchy", "default_hierarchy"] {
        let Some(levels) = entry(document, list) else {
            continue;
        };
        if list == "default_hierarchy" && !in_module {
            let key = entry_key(document, list).unwrap_or(levels);
            out.push(RULE.diagnostic(
                at(key),
                "'default_hierarchy' is only allowed in the module layer",
            ));
            continue;
        }
        let NodeKind::Sequence(levels) = &levels.kind else {
            continue;
        };
        for level in levels {
            check_level(level, defaults, &mut |node, message| {
                out.push(RULE.diagnostic(at(node), message))
            });
        }
        if list != "plan_hierarchy" {
            duplicate_names(&file.text, levels, &mut |node, message| {
                out.push(RULE.diagnostic(at(node), message))
            });
        }
    }
    out
}

/// The configuration as Puppet's `validate_config` checks it: an empty (or `false`)
/// `defaults` or `hierarchy` replaced by Puppet's own (`config[KEY_DEFAULTS] ||= ...`).
fn with_puppets_defaults(config: Value) -> Value {
    let Value::Hash(entries) = &config else {
        return config;
    };
    let string = |s: &str| Value::string(s);
    let hash = |pairs: &[(&str, &str)]| {
        Value::Hash(std::sync::Arc::new(
            pairs.iter().map(|(k, v)| (string(k), string(v))).collect(),
        ))
    };
    let mut entries = (**entries).clone();
    for (key, default) in [
        ("defaults", hash(&[("datadir", "data"), ("data_hash", "yaml_data")])),
        (
            "hierarchy",
            Value::array(vec![hash(&[("name", "Common"), ("path", "common.yaml")])]),
        ),
    ] {
        if let Some(value) = entries.get_mut(&string(key)) {
            if matches!(value, Value::Undef | Value::Bool(false)) {
                *value = default;
            }
        }
    }
    Value::Hash(std::sync::Arc::new(entries))
}

/// Whether a node is what Ruby's `||=` replaces: nothing (`~`, empty) or `false`.
fn replaced_by_default(node: &Node) -> bool {
    matches!(yaml::value_as_written(node), Some(Value::Undef | Value::Bool(false)))
}

/// Puppet's `validate_hierarchy` for one level.
fn check_level(node: &Node, defaults: Option<&Node>, report: &mut dyn FnMut(&Node, String)) {
    let table = v5();
    let name = entry(node, "name").and_then(scalar).unwrap_or_default();
    // What is about the whole level is shown at its name.
    let level = entry_key(node, "name").unwrap_or(node);
    match count_keys(node, &table.all_function_keys) {
        // Without `defaults`, Puppet's own give `data_hash: yaml_data`.
        0 if defaults.is_some_and(|d| count_keys(d, &table.function_keys) == 0) => report(
            level,
            format!(
                "One of {} must be defined in hierarchy '{name}'",
                combine(&table.function_keys)
            ),
        ),
        0 | 1 => {}
        _ => report(
            level,
            format!(
                "Only one of {} can be defined in hierarchy '{name}'",
                combine(&table.function_keys)
            ),
        ),
    }
    if let Some(key) = entry_key(node, "hiera3_backend") {
        report(
            key,
            "'hiera3_backend' is only allowed in the global layer".to_string(),
        );
    }
    if count_keys(node, &table.location_keys) > 1 {
        report(
            level,
            format!(
                "Only one of {} can be defined in hierarchy '{name}'",
                combine(&table.location_keys)
            ),
        );
    }
    if let Some(options) = entry(node, "options") {
        for key in &table.reserved_option_keys {
            if let Some(node) = entry_key(options, key) {
                report(
                    node,
                    format!("Option key '{key}' used in hierarchy '{name}' is reserved by Puppet"),
                );
            }
        }
    }
}

/// A level name used again, where Puppet finds it: its message names the line of the
/// first (the first line `name: <name>` is written on, as Puppet searches the text).
fn duplicate_names(text: &str, levels: &[Node], report: &mut dyn FnMut(&Node, String)) {
    let mut seen: Vec<String> = Vec::new();
    for level in levels {
        let Some(node) = entry(level, "name") else {
            continue;
        };
        let Some(name) = scalar(node) else {
            continue;
        };
        if !seen.contains(&name) {
            seen.push(name);
            continue;
        }
        let first_line = text.lines().position(|line| names_level(line, &name));
        let mut message = format!("Hierarchy name '{name}' defined more than once.");
        if let Some(line) = first_line {
            message.push_str(&format!(" First defined at (line: {})", line + 1));
        }
        report(node, message);
    }
}

/// Whether `line` matches Puppet's `/\s+name:\s+['"]?NAME(?:[^\w]|$)/`.
fn names_level(line: &str, name: &str) -> bool {
    let Some(at) = line.find("name:") else {
        return false;
    };
    if at == 0 || !line[..at].ends_with(char::is_whitespace) {
        return false;
    }
    let rest = &line[at + "name:".len()..];
    let after_space = rest.trim_start();
    if after_space.len() == rest.len() {
        return false;
    }
    let unquoted = after_space.strip_prefix(['\'', '"']).unwrap_or(after_space);
    unquoted
        .strip_prefix(name)
        .is_some_and(|tail| !tail.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// Puppet's `combine_strings`: `a, b, or c`.
fn combine(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}

/// What Ruby's `to_i` makes of a version (`version.to_i`), where pupcheck is sure.
fn ruby_to_i(value: Option<Value>) -> Option<i64> {
    match value? {
        Value::Integer(n) => Some(n),
        Value::Float(f) if f.is_finite() && f.abs() < 1e15 => Some(f.trunc() as i64),
        Value::String(s) => {
            let s = s.trim_start();
            let (sign, digits) = match s.strip_prefix('-') {
                Some(rest) => (-1, rest),
                None => (1, s.strip_prefix('+').unwrap_or(s)),
            };
            let digits: String = digits.chars().take_while(char::is_ascii_digit).collect();
            if digits.is_empty() {
                return Some(0);
            }
            // Ruby reads `1_0` as 10: not guessed.
            if s.contains('_') {
                return None;
            }
            digits.parse::<i64>().ok().map(|n| sign * n)
        }
        _ => None,
    }
}

/// The node a mismatch is about: its path walked into the document (an unrecognized
/// key at the key itself).
fn locate<'a>(document: &'a Node, path: &[PathElem], message: &str) -> &'a Node {
    let mut node = document;
    for elem in path {
        let next = match elem {
            PathElem::Entry(key) => entry(node, key),
            PathElem::EntryKey(key) => entry_key(node, key),
            PathElem::Index(i) => match &node.kind {
                NodeKind::Sequence(items) => items.get(*i),
                _ => None,
            },
            _ => Some(node),
        };
        match next {
            Some(next) => node = next,
            None => break,
        }
    }
    message
        .strip_suffix('\'')
        .and_then(|m| m.rsplit_once("unrecognized key '"))
        .and_then(|(_, key)| entry_key(node, key))
        .unwrap_or(node)
}

fn scalar(node: &Node) -> Option<String> {
    match &node.kind {
        NodeKind::Scalar { text, .. } => Some(text.clone()),
        _ => None,
    }
}

/// The entry of a mapping whose key is written `key`: (key node, value node).
fn find<'a>(node: &'a Node, key: &str) -> Option<(&'a Node, &'a Node)> {
    let NodeKind::Mapping(entries) = &node.kind else {
        return None;
    };
    entries
        .iter()
        .rev() // Psych keeps the last of keys written twice.
        .find(|(k, _)| matches!(&k.kind, NodeKind::Scalar { text, .. } if text == key))
        .map(|(k, v)| (k, v))
}

fn entry<'a>(node: &'a Node, key: &str) -> Option<&'a Node> {
    find(node, key).map(|(_, v)| v)
}

fn entry_key<'a>(node: &'a Node, key: &str) -> Option<&'a Node> {
    find(node, key).map(|(k, _)| k)
}

fn count_keys(node: &Node, keys: &[String]) -> usize {
    keys.iter().filter(|k| find(node, k).is_some()).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puppets_text_search_for_a_level_name() {
        assert!(names_level("  - name: common", "common"));
        assert!(names_level("    name: 'common' # x", "common"));
        assert!(!names_level("name: common", "common"));
        assert!(!names_level("  - name: commonality", "common"));
        assert!(!names_level("  - name:common", "common"));
    }

    #[test]
    fn versions_as_ruby_reads_them() {
        assert_eq!(ruby_to_i(Some(Value::string("5"))), Some(5));
        assert_eq!(ruby_to_i(Some(Value::string(" 6x"))), Some(6));
        assert_eq!(ruby_to_i(Some(Value::string("five"))), Some(0));
        assert_eq!(ruby_to_i(Some(Value::Float(5.9))), Some(5));
        assert_eq!(ruby_to_i(Some(Value::Bool(true))), None);
    }

    #[test]
    fn combines_as_puppets_label() {
        let words: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        assert_eq!(combine(&words), "a, b, or c");
        assert_eq!(combine(&words[..2]), "a or b");
    }
}
