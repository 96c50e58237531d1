use crate::diagnostics::Diagnostic;
use crate::hiera::{yaml, DataFile};
use crate::env::Environment;
use crate::source::SourceFile;
use crate::types::disjoint::disjoint;
use crate::types::mismatch::{describe_inferred, describe_value, of_subject, PathElem};
use crate::types::resolve::Resolver;
use crate::types::{instance_of, t, Value};
use crate::hiera::options::LookupOptions;

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
    /// A key `lookup_options` merges or converts is judged as the lookup gives it: merged
    /// (`unique` makes an array of every level's elements; `hash` and `deep` merge the
    /// hashes, a key taken from the first level that has it) with the values of the files
    /// every node reads, then converted (`convert_to: Sensitive` gives a `Sensitive`; a
    /// conversion that fails is Puppet's error, "The convert_to lookup_option for key ...
    /// raised error: ..."). A file only some nodes read (`nodes/%{trusted.certname}.yaml`,
    /// a `mapped_paths` level) is those nodes' value, judged with the files every node
    /// reads.
    ///
    /// Not judged: a value no node sees, because a file Hiera reads before it, for every
    /// node, binds the key too (`common.yaml` above `defaults.yaml`, the environment's data
    /// above a module's); a tag, or a number Psych reads
    /// its own way (`0755`, `1_000`); `~` (undef, which leaves the parameter's default); keys
    /// whose `lookup_options` differ by node or use a deep merge's `knockout_prefix`
    /// (`sort_merged_arrays` and `merge_hash_arrays` are modelled); levels with another
    /// backend (`eyaml`, `json`); keys written with a leading `::`, which automatic
    /// parameter lookup never asks for.
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

/// The findings on one data file of the environment `env`.
pub fn check_data_file(file: &DataFile, source: &SourceFile, env: &Environment) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // hiera-eyaml decrypts the values before Puppet sees them.
    if file.encrypted {
        return out;
    }
    let hiera = env.hiera();
    let mut resolver = Resolver::new(env);
    for (key, key_node, value_node) in file.entries() {
        let at = anchor(&file.text, key_node, value_node);
        // Automatic parameter lookup asks for `ntp::servers`: a key written
        // `::ntp::servers` is another key, which binds nothing.
        let Some((class, param)) = key.rsplit_once("::").filter(|_| !key.starts_with("::")) else {
            continue;
        };
        let in_namespace = match &file.module {
            None => true,
            Some(module) => class == module || class.starts_with(&format!("{module}::")),
        };
        if !in_namespace {
            continue;
        }
        let Some(options) = hiera.lookup_options(key) else {
            continue;
        };
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
        let subject = format!(
            "Class[{}]",
            crate::infer::declarations::capitalized(&definition.name)
        );
        let defined_in = format!(
            "{subject} is defined in {}",
            crate::source::shown_path(&definition.path)
        );
        if options != LookupOptions::NONE {
            out.extend(
                judge_with_options(env, file, key, &options, &expected, &path, &subject)
                    .into_iter()
                    .map(|(message, notes)| {
                        notes.into_iter().fold(
                            RULE.diagnostic(
                                crate::analysis::code_map::rest_of_line(&source.text, at),
                                message,
                            ),
                            |d, note| d.with_note(note),
                        )
                        .with_note(defined_in.clone())
                    }),
            );
            continue;
        }
        // A value no node sees (a file Hiera reads before binds the key for every
        // node) fails nothing.
        if hiera.shadowed(file, key) {
            continue;
        }
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
                Some(aliased) if hiera.lookup_options(aliased) == Some(LookupOptions::NONE) => {
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
        out.push(
            RULE.diagnostic(
                crate::analysis::code_map::rest_of_line(&source.text, at),
                of_subject(&subject, &parts),
            )
            .with_note(defined_in),
        );
    }
    out
}

/// The findings on `file`'s value of `key`, which `lookup_options` merges or converts:
/// `(message, notes)`. Each value some nodes get is judged once: the value of
/// the files every node reads at the first of them, and a file only some nodes read
/// where its own value makes them fail otherwise.
fn judge_with_options<'a>(
    env: &'a Environment,
    file: &'a DataFile,
    key: &'a str,
    options: &LookupOptions,
    expected: &crate::types::Type,
    path: &[PathElem],
    subject: &str,
) -> Vec<(String, Vec<String>)> {
    let found = env.hiera().found(key, &options.merge);
    let verdicts: Vec<_> = found
        .iter()
        .map(|f| judge_found(f, key, options, expected, path, subject))
        .collect();
    let everywhere = found
        .iter()
        .zip(&verdicts)
        .find(|(f, _)| f.everywhere)
        .and_then(|(_, verdict)| verdict.clone());
    found
        .into_iter()
        .zip(verdicts)
        .filter(|(f, _)| std::ptr::eq(f.file, file))
        .filter_map(|(f, verdict)| {
            let message = verdict?;
            if !f.everywhere && everywhere.as_ref() == Some(&message) {
                return None;
            }
            let mut notes = vec![lookup_options_note(options)];
            notes.extend(f.merged_note());
            Some((message, notes))
        })
        .collect()
}

/// Puppet's message for the value `found`, converted as `options` say, if the
/// parameter's type rejects it or the conversion fails.
fn judge_found(
    found: &crate::hiera::merge::Found,
    key: &str,
    options: &LookupOptions,
    expected: &crate::types::Type,
    path: &[PathElem],
    subject: &str,
) -> Option<String> {
    let value = found.value.clone()?;
    if matches!(value, Value::Undef) {
        return None;
    }
    let value = match converted(options, key, value)? {
        Ok(value) => value,
        Err(message) => return Some(message),
    };
    if instance_of(&value, expected) {
        return None;
    }
    let parts = describe_value(expected, &value, path);
    (!parts.is_empty()).then(|| of_subject(subject, &parts))
}

/// `value` converted as the key's `convert_to` says (unchanged without one), or
/// Puppet's message when the conversion fails; `None` for a conversion pupcheck does
/// not model.
pub(super) fn converted(
    options: &LookupOptions,
    key: &str,
    value: Value,
) -> Option<Result<Value, String>> {
    let Some((type_name, args)) = &options.convert_to else {
        return Some(Ok(value));
    };
    let mut arguments = vec![value];
    arguments.extend(args.iter().cloned());
    Some(crate::eval::new_value(type_name, &arguments)?.map_err(|message| {
        format!("The convert_to lookup_option for key '{key}' raised error: {message}")
    }))
}

/// What the key's `lookup_options` do, said in a note.
fn lookup_options_note(options: &LookupOptions) -> String {
    let mut said = Vec::new();
    if options.merge != crate::hiera::merge::Merge::First {
        said.push(format!("merge {}", options.merge.name()));
    }
    if let Some((type_name, _)) = &options.convert_to {
        said.push(format!("convert_to {type_name}"));
    }
    format!("lookup_options: {}", said.join(", "))
}

/// Where a finding on an entry's value is shown: the value, or the key where the
/// value is a block that starts on the lines below it.
fn anchor(text: &str, key: &yaml::Node, value: &yaml::Node) -> usize {
    let between = text.get(key.offset..value.offset).unwrap_or_default();
    if between.contains('\n') {
        key.offset
    } else {
        value.offset
    }
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
