//! Puppet's built-in functions, as data (`data/functions.toml`, generated from Puppet
//! itself by `scripts/puppet/functions.rb`): each 4.x function's dispatches in the
//! order Puppet's dispatcher tries them, each 3.x function's arity. A function's types
//! are resolved on its first use; one whose types pupcheck cannot read is not known.

use crate::types::from_ast::parse_type_expr;
use crate::types::resolve::{AliasTable, Resolver};
use crate::types::{Kind, Type};
use foldhash::HashMap;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A built-in function as Puppet calls it.
#[derive(Debug, Clone)]
pub enum Function {
    /// Written with the 4.x API: its dispatches, in the order Puppet tries them.
    Typed(Vec<Dispatch>),
    /// Written with the 3.x API: how many arguments it takes (`newfunction`'s arity:
    /// `n` exactly, `-n` at least `n - 1`) and, for Puppet's own, what it returns.
    Legacy { arity: i64, returns: Option<Type> },
}

/// One signature of a 4.x function.
#[derive(Debug, Clone)]
pub struct Dispatch {
    /// The parameters' names and types; the last one repeats when `max` is `None`.
    pub names: Vec<String>,
    pub types: Vec<Type>,
    pub min: usize,
    pub max: Option<usize>,
    pub block: Option<Block>,
    pub returns: Option<Type>,
    /// The signature as Puppet's messages print it.
    pub signature: String,
    /// Only picked to raise its own error for the arguments it takes.
    pub mismatch_handler: bool,
}

/// The block a dispatch takes.
#[derive(Debug, Clone)]
pub struct Block {
    /// The `Callable` type the lambda must be.
    pub ty: Type,
    pub optional: bool,
}

impl Block {
    /// The parameter types and how many parameters the lambda is called with;
    /// `None` for a bare `Callable` (any lambda).
    pub fn parameters(&self) -> Option<(&[Type], usize, Option<usize>)> {
        let Kind::Callable {
            params: Some(params),
            ..
        } = self.ty.kind()
        else {
            return None;
        };
        let Kind::Tuple { types, size } = params.kind() else {
            return None;
        };
        let (min, max) = match size {
            Some(r) => (
                r.from.unwrap_or(0).max(0) as usize,
                r.to.map(|to| to.max(0) as usize),
            ),
            None => (types.len(), Some(types.len())),
        };
        Some((types, min, max))
    }
}

#[derive(Debug, Deserialize)]
struct Table {
    functions: BTreeMap<String, Entry>,
}

#[derive(Debug, Deserialize)]
struct Entry {
    #[serde(default)]
    dispatch: Vec<DispatchEntry>,
    #[serde(default)]
    aliases: BTreeMap<String, String>,
    arity: Option<i64>,
    /// A 3.x function's result type (a 4.x one has it per dispatch).
    returns: Option<String>,
    /// Why pupcheck does not judge its calls.
    unmodelled: Option<String>,
}

#[derive(Debug, Deserialize)]
struct DispatchEntry {
    names: Vec<String>,
    types: Vec<String>,
    min: usize,
    max: Option<usize>,
    block: Option<String>,
    #[serde(default)]
    block_optional: bool,
    returns: Option<String>,
    signature: String,
    #[serde(default)]
    mismatch_handler: bool,
}

struct Functions {
    entries: BTreeMap<String, Entry>,
    resolved: HashMap<String, OnceLock<Option<Function>>>,
}

/// Reads the table now (`super::read_tables`).
pub(super) fn read_table() {
    functions();
}

fn functions() -> &'static Functions {
    static FUNCTIONS: OnceLock<Functions> = OnceLock::new();
    FUNCTIONS.get_or_init(|| {
        let table: Table = crate::builtin_data::Table::Functions.read();
        let resolved = table
            .functions
            .keys()
            .map(|name| (name.clone(), OnceLock::new()))
            .collect();
        Functions {
            entries: table.functions,
            resolved,
        }
    })
}

/// Whether Puppet has a built-in function called `name` (whether or not pupcheck can
/// judge its calls).
pub fn exists(name: &str) -> bool {
    functions().entries.contains_key(name)
}

/// The names of Puppet's own functions.
pub fn names() -> impl Iterator<Item = &'static str> {
    functions().entries.keys().map(String::as_str)
}

/// Whether `name` is a function a gem installed beside Puppet Server provides to
/// every environment (PuppetDB's terminus gem: `puppetdb_query`), which no module
/// defines and Puppet's own table lacks.
pub fn from_server_gem(name: &str) -> bool {
    // The terminus gem's only function; Puppet Server itself adds none.
    name == "puppetdb_query"
}

/// The built-in function called `name`, if Puppet has one and pupcheck can read all
/// its types.
pub fn function(name: &str) -> Option<&'static Function> {
    let table = functions();
    let entry = table.entries.get(name)?;
    table
        .resolved
        .get(name)?
        .get_or_init(|| resolve(entry))
        .as_ref()
}

fn resolve(entry: &Entry) -> Option<Function> {
    if entry.unmodelled.is_some() {
        return None;
    }
    if let Some(arity) = entry.arity {
        let returns = match &entry.returns {
            Some(text) => Some(
                Resolver::new(&AliasTable::partial())
                    .resolve(&parse_type_expr(text).ok()?)
                    .ok()?,
            ),
            None => None,
        };
        return Some(Function::Legacy { arity, returns });
    }
    // The function's own aliases, and no other name: a name pupcheck does not know
    // (an Object type) makes the function unknown rather than misread.
    let mut aliases = AliasTable::partial();
    for (name, body) in &entry.aliases {
        aliases.insert(name, parse_type_expr(body).ok()?);
    }
    let mut resolver = Resolver::new(&aliases);
    let mut resolve =
        |text: &str| -> Option<Type> { resolver.resolve(&parse_type_expr(text).ok()?).ok() };
    let mut dispatches = Vec::with_capacity(entry.dispatch.len());
    for d in &entry.dispatch {
        let types = d
            .types
            .iter()
            .map(|t| resolve(t))
            .collect::<Option<Vec<_>>>()?;
        let block = match &d.block {
            Some(text) => Some(Block {
                ty: resolve(text)?,
                optional: d.block_optional,
            }),
            None => None,
        };
        let returns = match &d.returns {
            Some(text) => Some(resolve(text)?),
            None => None,
        };
        dispatches.push(Dispatch {
            names: d.names.clone(),
            types,
            min: d.min,
            max: d.max,
            block,
            returns,
            signature: d.signature.clone(),
            mismatch_handler: d.mismatch_handler,
        });
    }
    Some(Function::Typed(dispatches))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_is_read_unless_the_table_says_why_not() {
        let table = functions();
        let unread: Vec<&str> = table
            .entries
            .iter()
            .filter(|(name, entry)| entry.unmodelled.is_none() && function(name).is_none())
            .map(|(name, _)| name.as_str())
            .collect();
        assert_eq!(unread, Vec::<&str>::new());
    }

    #[test]
    fn dispatches_keep_puppets_order_types_and_counts() {
        let Some(Function::Typed(split)) = function("split") else {
            panic!("split is a 4.x function");
        };
        assert_eq!(split.len(), 3);
        assert_eq!(split[0].names, ["str", "pattern"]);
        assert_eq!(split[1].types[1].to_string(), "Regexp");
        assert_eq!((split[0].min, split[0].max), (2, Some(2)));
        let Some(Function::Typed(each)) = function("each") else {
            panic!("each is a 4.x function");
        };
        let block = each[0].block.as_ref().expect("each takes a block");
        assert!(!block.optional);
        assert_eq!(
            block.parameters().map(|(_, min, max)| (min, max)),
            Some((2, Some(2))),
            "a hash is walked with a key and a value first"
        );
        assert!(matches!(
            function("sprintf"),
            Some(Function::Legacy { arity: -2, .. })
        ));
        assert!(function("annotate").is_none() && exists("annotate"));
        assert!(!exists("ensure_packages"), "stdlib's, not Puppet's");
    }
}
