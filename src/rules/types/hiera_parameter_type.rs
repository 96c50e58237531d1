use crate::diagnostics::Diagnostic;
use crate::hiera::{yaml, DataFile};
use crate::env::Environment;
use crate::source::SourceFile;
use crate::types::disjoint::disjoint;
use crate::types::mismatch::{describe_inferred, describe_value, of_subject, PathElem};
use crate::types::resolve::Resolver;
use crate::types::{instance_of, t, Value};
use std::collections::HashSet;

declare_rule! {
    /// ## What it does
    /// Checks the values Hiera binds to class parameters by automatic parameter lookup
    /// (`ntp::servers: 42` in `data/common.yaml`) against the parameter's type, when the class
    /// is one pupcheck has read. The data is the environment's (the levels of its `hiera.yaml`;
    /// without one, Puppet 7 reads no environment data) and each module's (the module's
    /// `hiera.yaml`; a module binds keys of its own namespace only); every file a level's path
    /// can name is read, whatever the node. The finding is at the value, in the YAML file.
    ///
    /// A value Hiera interpolates (`"%{facts.networking.fqdn}:443"`) is a string whatever
    /// it holds: it is judged against a type no string matches (`Integer`, `Array`), not
    /// against one some string may match. A whole `%{alias('key')}` gives the value the data
    /// binds `key` to: judged when every such value some node may see is known and rejected
    /// alike.
    ///
    /// Not judged: a value no node sees, because a file Hiera reads before it, for every
    /// node, binds the key too (`common.yaml` above `defaults.yaml`, the environment's data
    /// above a module's); a tag, or a number Psych reads
    /// its own way (`0755`, `1_000`); `~` (undef, which leaves the parameter's default); keys
    /// that `lookup_options` names (a `convert_to` or merge changes the value); levels with
    /// another backend (`eyaml`, `json`) or `mapped_paths`; keys written with a leading `::`,
    /// which automatic parameter lookup never asks for.
    ///
    /// ## Why it matters
    /// Puppet fails the catalog of every node the class is declared on ("Class[Ntp]:
    /// parameter 'servers' expects an Array value, got Integer"), though no manifest is wrong.
    ///
    /// ## Example
    /// ```yaml
    /// # data/common.yaml
    /// ntp::servers: 'pool.ntp.org'   # class ntp (Array[String] $servers)
    /// ```
    ///
    /// ## How to fix
    /// Write the value as the parameter's type asks (`ntp::servers: ['pool.ntp.org']`).
    "hiera-parameter-type" (Type, Error)
    "Hiera data binds a class parameter to a value its type rejects"
}

/// The findings on one data file of the environment `env`; `overridden`: the keys any
/// `lookup_options` of the environment names (`None`: one is a pattern, so any key may
/// be).
pub fn check_data_file(
    file: &DataFile,
    source: &SourceFile,
    env: &Environment,
    overridden: Option<&HashSet<String>>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(overridden) = overridden else {
        return out;
    };
    // hiera-eyaml decrypts the values before Puppet sees them.
    if file.encrypted {
        return out;
    }
    let mut resolver = Resolver::new(env);
    for (key, _, value_node) in file.entries() {
        // Automatic parameter lookup asks for `ntp::servers`: a key written
        // `::ntp::servers` is another key, which binds nothing.
        let Some((class, param)) = key.rsplit_once("::").filter(|_| !key.starts_with("::")) else {
            continue;
        };
        let in_namespace = match &file.module {
            None => true,
            Some(module) => class == module || class.starts_with(&format!("{module}::")),
        };
        // A value no node sees (a file Hiera reads before binds the key for every
        // node) fails nothing.
        if !in_namespace || overridden.contains(key) || env.hiera().shadowed(file, key) {
            continue;
        }
        let Some(definition) = env.class(class) else {
            continue;
        };
        let Some(type_expr) = definition.param(param).and_then(|p| p.type_expr.as_ref()) else {
            continue;
        };
        let Some(expected) = crate::infer::parameter_values::declared_type(&mut resolver, type_expr) else {
            continue;
        };
        if !expected.patterns_runnable() {
            continue;
        }
        let path = [PathElem::Parameter(param.to_string())];
        let parts = match yaml::value(value_node) {
            Some(Value::Undef) => continue,
            Some(value) if instance_of(&value, &expected) => continue,
            Some(value) => describe_value(&expected, &value, &path),
            // A string Hiera interpolates is a string, whatever it holds (only a whole
            // `%{alias('...')}` keeps the type of what it names): judged where no
            // string is of the type.
            None if interpolated_string(value_node) => {
                if !disjoint(&expected, &t::string()) {
                    continue;
                }
                describe_inferred(&expected, &t::string(), &path)
            }
            None => match aliased_key(value_node) {
                Some(aliased) if !overridden.contains(aliased) => {
                    match aliased_mismatch(env, aliased, &expected, &path) {
                        Some(parts) => parts,
                        None => continue,
                    }
                }
                _ => continue,
            },
        };
        if parts.is_empty() {
            continue;
        }
        let subject = format!(
            "Class[{}]",
            crate::infer::declarations::capitalized(&definition.name)
        );
        out.push(
            RULE.diagnostic(
                crate::analysis::code_map::rest_of_line(&source.text, value_node.offset),
                of_subject(&subject, &parts),
            )
            .with_note(format!(
                "{subject} is defined in {}",
                crate::source::shown_path(&definition.path)
            )),
        );
    }
    out
}

/// The key a whole `%{alias('key')}` names.
fn aliased_key(node: &yaml::Node) -> Option<&str> {
    let yaml::NodeKind::Scalar {
        text,
        tagged: false,
        ..
    } = &node.kind
    else {
        return None;
    };
    let inner = text.trim().strip_prefix("%{")?.strip_suffix('}')?.trim();
    let argument = inner
        .strip_prefix("alias")?
        .trim_start()
        .strip_prefix('(')?;
    let argument = argument.strip_suffix(')')?.trim();
    let key = argument
        .strip_prefix('\'')
        .and_then(|a| a.strip_suffix('\''))
        .or_else(|| argument.strip_prefix('"').and_then(|a| a.strip_suffix('"')))?;
    (!key.is_empty() && !key.contains(['%', '.', '\'', '"'])).then_some(key)
}

/// Puppet's words for the value `%{alias('key')}` gives, when every value the data
/// binds `key` to that some node may see is known and rejected alike by `expected`.
fn aliased_mismatch(
    env: &Environment,
    key: &str,
    expected: &crate::types::Type,
    path: &[PathElem],
) -> Option<Vec<String>> {
    let mut found: Option<Vec<String>> = None;
    for (file, node) in env.hiera().candidates(key) {
        if file.encrypted {
            return None;
        }
        let value = yaml::value(node)?;
        if matches!(value, Value::Undef) || instance_of(&value, expected) {
            return None;
        }
        let parts = describe_value(expected, &value, path);
        match &found {
            Some(previous) if *previous != parts => return None,
            _ => found = Some(parts),
        }
    }
    found
}

/// A scalar Hiera interpolates into a string: one with `%{...}` that is not a whole
/// `%{alias('...')}` (which gives the value it names, of any type).
fn interpolated_string(node: &yaml::Node) -> bool {
    let yaml::NodeKind::Scalar {
        text,
        tagged: false,
        ..
    } = &node.kind
    else {
        return false;
    };
    if !text.contains("%{") {
        return false;
    }
    let whole = text.trim();
    let alias = whole
        .strip_prefix("%{")
        .and_then(|rest| rest.strip_suffix('}'))
        .map(str::trim)
        .is_some_and(|inner| inner.starts_with("alias(") || inner.starts_with("alias ("));
    !alias
}
