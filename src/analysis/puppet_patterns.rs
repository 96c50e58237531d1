//! Puppet's naming patterns (`puppet/pops/patterns.rb`), shared by the rules that check
//! names.

use regex::Regex;
use std::sync::OnceLock;

fn compiled(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("a valid Puppet naming pattern"))
}

/// The name part of a variable (`VAR_NAME`).
pub fn var_name() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(
        &RE,
        r"\A(?:::)?(?:[a-z][A-Za-z0-9_]*::)*[a-z_][A-Za-z0-9_]*\z",
    )
}

/// A numeric match variable name (`NUMERIC_VAR_NAME`).
pub fn numeric_var_name() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"\A(?:0|[1-9][0-9]*)\z")
}

/// A parameter name (`PARAM_NAME`).
pub fn param_name() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"\A[a-z_][A-Za-z0-9_]*\z")
}

/// The name of a class, defined type or function (`CLASSREF_DECL`).
pub fn definition_name() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"\A[a-z][A-Za-z0-9_]*(?:::[a-z][A-Za-z0-9_]*)*\z")
}

/// Type names Puppet reserves (checker4_0.rb's RESERVED_TYPE_NAMES).
pub const RESERVED_TYPE_NAMES: &[&str] = &[
    "type",
    "any",
    "unit",
    "scalar",
    "boolean",
    "numeric",
    "integer",
    "float",
    "collection",
    "array",
    "hash",
    "tuple",
    "struct",
    "variant",
    "optional",
    "enum",
    "regexp",
    "pattern",
    "runtime",
    "init",
    "object",
    "sensitive",
    "semver",
    "semverrange",
    "string",
    "timestamp",
    "timespan",
    "typeset",
];
