//! Types written with `Puppet::Type.newtype(:name) do ... end`: the attributes its
//! block declares with `newparam`, `newproperty` and `ensurable`, and for each the
//! values its `newvalues`/`newvalue`/`aliasvalue` list when they are all it accepts.
//!
//! The reader is sure of a type only when every statement of the block is one it
//! knows cannot add attributes, and every attribute-declaring call of the file is one
//! it read: a loop over names, a parent type, a helper that adds parameters, or a
//! `require` of anything but Puppet's or Ruby's own libraries makes the type unknown.

use super::super::syntax::RubySyntax;
use crate::builtin::resource_type::ResourceType;

/// Whether the reader looks at calls of `method` wherever they stand: a skimmer that
/// finds every call of these finds all the reader needs of the file's calls.
pub fn reads_calls_of(method: &str) -> bool {
    DECLARING.contains(&method)
        || LISTING.contains(&method)
        || DYNAMIC.contains(&method)
        || matches!(method, "newtype" | "require" | "require_relative" | "load")
}

/// Calls that declare attributes, wherever they stand.
const DECLARING: &[&str] = &[
    "newparam",
    "newproperty",
    "ensurable",
    "newcheck",
    "newmetaparam",
];
/// Calls that list an attribute's values.
const LISTING: &[&str] = &["newvalues", "newvalue", "aliasvalue", "defaultvalues"];
/// Calls that run code the reader does not follow.
const DYNAMIC: &[&str] = &[
    "instance_eval",
    "class_eval",
    "module_eval",
    "define_method",
    "send",
    "public_send",
    "eval",
    "include",
    "extend",
];
/// Statements of an attribute's block that add no value to its list.
const ATTRIBUTE_QUIET: &[&str] = &[
    "desc",
    "doc",
    "munge",
    "unmunge",
    "defaultto",
    "isnamevar",
    "isrequired",
    "require",
    "attr_accessor",
    "attr_reader",
];

/// Statements of a type's block that add no attribute.
const QUIET: &[&str] = &[
    "desc",
    "doc",
    "validate",
    "autorequire",
    "autobefore",
    "autonotify",
    "autosubscribe",
    "feature",
    "apply_to_device",
    "apply_to_host",
    "apply_to_all",
    "require",
    "puts",
    "warn",
    "attr_accessor",
    "attr_reader",
    "private",
    "alias_method",
];

pub fn read<T: RubySyntax>(tree: &T, name: &str) -> Option<ResourceType> {
    let mut declaring = 0;
    let mut listing = 0;
    let mut newtypes = Vec::new();
    for (node, method) in tree.calls() {
        match method {
            "newtype" => newtypes.push(node),
            "require" | "require_relative" | "load" if !requires_own_library(tree, node) => {
                return None
            }
            // `include Puppet::Util`: Puppet's own helpers add no attribute.
            "include" if includes_puppets_own(tree, node) => {}
            // `@resource.send(:properties)` calls a method named literally, which declares
            // nothing unless it is one of the calls counted.
            "send" | "public_send" if sends_literal_harmless(tree, node) => {}
            m if DYNAMIC.contains(&m) => return None,
            m if DECLARING.contains(&m) => declaring += 1,
            m if LISTING.contains(&m) => listing += 1,
            _ => {}
        }
    }
    let [newtype] = newtypes.as_slice() else {
        return None;
    };
    let receiver = tree.receiver(*newtype)?;
    // `Puppet::Type.newtype`, or `Type.newtype` inside `module Puppet`.
    let declares_type = matches!(receiver, "Puppet::Type" | "::Puppet::Type")
        || (receiver == "Type" && tree.inside_module(*newtype, "Puppet"));
    if !declares_type {
        return None;
    }
    // `newtype(:x, parent: ...)` inherits attributes this reader does not see;
    // `self_refresh: true` adds none.
    match tree.arguments(*newtype).as_slice() {
        [only, options @ ..]
            if tree.literal_name(*only) == Some(name)
                && options.iter().all(|o| {
                    tree.kind(*o) == "pair" && tree.pair_key(*o) == Some("self_refresh")
                }) => {}
        _ => return None,
    }
    let mut read = ResourceType {
        implicit_provider: true,
        ..ResourceType::default()
    };
    let (mut declared, mut listed) = (0, 0);
    for statement in tree.block_statements(*newtype)? {
        match tree.method_name(statement) {
            Some("newparam" | "newproperty") if tree.receiver(statement).is_none() => {
                let (attribute, values, calls) = read_attribute(tree, statement)?;
                read.add_listed(&attribute, values);
                read.attributes.push(attribute);
                declared += 1;
                listed += calls;
            }
            Some("ensurable") if tree.receiver(statement).is_none() => {
                // `Puppet::Property::Ensure`: `present` and `absent` unless its block
                // lists the values itself.
                let (values, calls) = match tree.block_statements(statement) {
                    None => (Some(Listed::names(&["present", "absent"])), 0),
                    Some(statements) => listed_values(tree, &statements, true),
                };
                read.add_listed("ensure", values);
                read.attributes.push("ensure".to_string());
                declared += 1;
                listed += calls;
            }
            Some(m) if QUIET.contains(&m) && tree.receiver(statement).is_none() => {}
            Some("include") if includes_puppets_own(tree, statement) => {}
            // `Puppet::Type.type(:other)`: loading another type adds nothing to this one.
            Some("type") if tree.receiver(statement) == Some("Puppet::Type") => {}
            // `def`, `def self.x`, `@doc = ...`, `CONSTANT = ...`, a bare doc string.
            _ if quiet_statement(tree, statement) => {}
            _ => return None,
        }
    }
    if declared != declaring {
        return None;
    }
    if listed != listing {
        // Values listed somewhere the reader did not look: none are judged.
        read.values.clear();
        read.aliases.clear();
    }
    read.attributes.sort();
    read.attributes.dedup();
    Some(read)
}

/// `newparam(:x, options) do ... end`: the attribute's name, the values it accepts
/// when they are a closed list, and how many value-listing calls its block holds.
fn read_attribute<'a, T: RubySyntax>(
    tree: &'a T,
    call: T::Node<'a>,
) -> Option<(String, Option<Listed>, usize)> {
    let args = tree.arguments(call);
    let (first, options) = args.split_first()?;
    let attribute = tree.literal_name(*first)?.to_string();
    if !valid_name(&attribute) || options.iter().any(|o| tree.kind(*o) != "pair") {
        return None;
    }
    // A parent class (`Puppet::Parameter::Boolean`) validates values its own way.
    let own_validation = !options.iter().any(|o| tree.pair_key(*o) == Some("parent"));
    let statements = tree.block_statements(call).unwrap_or_default();
    let (values, calls) = listed_values(tree, &statements, own_validation);
    Some((attribute, values, calls))
}

/// The values an attribute's block lists (`newvalues`, `newvalue`, `aliasvalue`), when
/// they are all it accepts (`closed`: validated as Puppet's own classes do), with how
/// many listing calls the block holds.
fn listed_values<'a, T: RubySyntax>(
    tree: &'a T,
    statements: &[T::Node<'a>],
    closed: bool,
) -> (Option<Listed>, usize) {
    let mut closed = closed;
    let mut listed = Listed::default();
    let mut calls = 0;
    for statement in statements {
        let method = tree.method_name(*statement);
        match method {
            Some("newvalues" | "newvalue" | "aliasvalue") => {
                calls += 1;
                let args = tree.arguments(*statement);
                let names: Vec<T::Node<'a>> = match method {
                    Some("newvalues") => args,
                    // `newvalue(:x, options)`, `aliasvalue(:alias, :name)`.
                    _ => args.into_iter().take(1).collect(),
                };
                let into = match method {
                    Some("aliasvalue") => &mut listed.aliases,
                    _ => &mut listed.names,
                };
                for arg in names {
                    // A regexp, a number or a computed name: not a closed list of names.
                    match (tree.kind(arg), tree.literal_name(arg)) {
                        ("simple_symbol" | "delimited_symbol" | "string", Some(name)) => {
                            if !into.iter().any(|n| n == name) {
                                into.push(name.to_string())
                            }
                        }
                        _ => closed = false,
                    }
                }
            }
            // `Puppet::Property::Ensure`'s own values, in an `ensurable` block.
            Some("defaultvalues") => {
                calls += 1;
                for name in ["present", "absent"] {
                    if !listed.names.iter().any(|n| n == name) {
                        listed.names.push(name.to_string());
                    }
                }
            }
            Some("validate" | "unsafe_validate") => closed = false,
            // What declares, documents or converts the value adds none to the list; any
            // other call (a helper given `self`, say) may.
            Some(m) if ATTRIBUTE_QUIET.contains(&m) => {}
            Some(_) => closed = false,
            _ if tree.kind(*statement) == "method" => {
                if matches!(
                    tree.defined_name(*statement),
                    Some("validate" | "unsafe_validate")
                ) {
                    closed = false;
                }
            }
            _ => {}
        }
    }
    (
        (closed && !listed.names.is_empty()).then_some(listed),
        calls,
    )
}

/// An attribute's listed values and their aliases.
#[derive(Default)]
struct Listed {
    names: Vec<String>,
    aliases: Vec<String>,
}

impl Listed {
    fn names(names: &[&str]) -> Listed {
        Listed {
            names: names.iter().map(|n| n.to_string()).collect(),
            aliases: Vec::new(),
        }
    }
}

impl ResourceType {
    fn add_listed(&mut self, attribute: &str, listed: Option<Listed>) {
        let Some(listed) = listed else {
            return;
        };
        self.values.insert(attribute.to_string(), listed.names);
        if !listed.aliases.is_empty() {
            self.aliases.insert(attribute.to_string(), listed.aliases);
        }
    }
}

/// `require 'puppet/...'` or a library of Ruby's own (`uri`); anything else may add to
/// the type.
fn requires_own_library<'a, T: RubySyntax>(tree: &'a T, call: T::Node<'a>) -> bool {
    if tree.method_name(call) != Some("require") {
        return false;
    }
    match tree.arguments(call).as_slice() {
        [library] => tree.literal_name(*library).is_some_and(|l| {
            let first = l.split('/').next().unwrap_or_default();
            l == "puppet"
                || l.starts_with("puppet/")
                || (!l.contains('/') && !l.is_empty())
                || RUBY_LIBRARIES.contains(&first)
        }),
        _ => false,
    }
}

fn sends_literal_harmless<'a, T: RubySyntax>(tree: &'a T, call: T::Node<'a>) -> bool {
    tree.arguments(call).first().is_some_and(|first| {
        matches!(tree.kind(*first), "simple_symbol" | "string")
            && tree
                .literal_name(*first)
                .is_some_and(|m| !DECLARING.contains(&m) && !LISTING.contains(&m))
    })
}

/// Ruby's standard libraries that are required by a path (`digest/md5`): they cannot
/// add to a Puppet type.
const RUBY_LIBRARIES: &[&str] = &[
    "digest",
    "net",
    "openssl",
    "json",
    "yaml",
    "psych",
    "uri",
    "open3",
    "fileutils",
    "securerandom",
    "tempfile",
    "time",
    "date",
    "set",
    "shellwords",
    "English",
    "erb",
    "base64",
    "ipaddr",
    "socket",
    "etc",
    "pathname",
    "stringio",
    "zlib",
    "rexml",
];

fn includes_puppets_own<'a, T: RubySyntax>(tree: &'a T, call: T::Node<'a>) -> bool {
    let args = tree.arguments(call);
    !args.is_empty()
        && args
            .iter()
            .all(|a| tree.kind(*a) == "scope_resolution" && tree.source(*a).starts_with("Puppet::"))
}

fn quiet_statement<'a, T: RubySyntax>(tree: &'a T, statement: T::Node<'a>) -> bool {
    match tree.kind(statement) {
        // A helper class or module (`class CronParam < Puppet::Property`) adds no
        // attribute by being defined: a `newparam` in it would be one the count above
        // did not read.
        "method" | "singleton_method" | "string" | "heredoc_beginning" | "class" | "module" => true,
        // `@doc = ...`, `CONSTANT = ...`, a local (`munge_bool = proc do ... end`).
        "assignment" => matches!(
            tree.assigned_kind(statement),
            Some("instance_variable" | "constant" | "identifier")
        ),
        _ => false,
    }
}

fn valid_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}
