//! Whether two types share no value (spec 001: a value is an instance of a type when it
//! is in the type's set of values): the question a check asks of a value known only by
//! its type. Answered at the level of value families (integers, strings, arrays, ...),
//! so `true` is certain and anything finer (ranges, sizes, patterns) counts as
//! overlapping.

use super::model::{Kind, Type};

/// The families of values a type may hold, one bit each.
type Families = u32;

const UNDEF: Families = 1;
const DEFAULT: Families = 1 << 1;
const INTEGER: Families = 1 << 2;
const FLOAT: Families = 1 << 3;
const STRING: Families = 1 << 4;
const BOOLEAN: Families = 1 << 5;
const REGEXP: Families = 1 << 6;
const ARRAY: Families = 1 << 7;
const HASH: Families = 1 << 8;
const TYPE: Families = 1 << 9;
const SEMVER: Families = 1 << 10;
const SEMVER_RANGE: Families = 1 << 11;
const TIMESPAN: Families = 1 << 12;
const TIMESTAMP: Families = 1 << 13;
const SENSITIVE: Families = 1 << 14;
const BINARY: Families = 1 << 15;
/// Every family, and those with no bit of their own (resources, callables,
/// iterators, objects, URIs...).
const ALL: Families = u32::MAX;

const SCALAR_DATA: Families = INTEGER | FLOAT | STRING | BOOLEAN;
const SCALAR: Families = SCALAR_DATA | REGEXP | SEMVER | SEMVER_RANGE | TIMESPAN | TIMESTAMP;

/// How deep aliases are followed before giving up (recursive aliases).
const MAX_DEPTH: usize = 32;

fn families(ty: &Type, depth: usize) -> Families {
    if depth > MAX_DEPTH {
        return ALL;
    }
    let inner = |t: &Option<Type>| t.as_ref().map_or(ALL, |t| families(t, depth + 1));
    match ty.kind() {
        Kind::Undef => UNDEF,
        Kind::Default => DEFAULT,
        Kind::Integer(_) => INTEGER,
        Kind::Float(_) => FLOAT,
        Kind::Numeric => INTEGER | FLOAT,
        Kind::String(_) | Kind::Enum { .. } | Kind::Pattern(_) => STRING,
        Kind::Boolean(_) => BOOLEAN,
        Kind::Regexp(_) => REGEXP,
        Kind::Array { .. } | Kind::Tuple { .. } => ARRAY,
        Kind::Hash { .. } | Kind::Struct(_) => HASH,
        Kind::Collection(_) => ARRAY | HASH,
        Kind::Scalar => SCALAR,
        Kind::ScalarData => SCALAR_DATA,
        Kind::Type(_) => TYPE,
        Kind::SemVer(_) => SEMVER,
        Kind::SemVerRange => SEMVER_RANGE,
        Kind::Timespan(_) => TIMESPAN,
        Kind::Timestamp(_) => TIMESTAMP,
        Kind::Sensitive(_) => SENSITIVE,
        Kind::Binary => BINARY,
        Kind::Optional(t) => UNDEF | inner(t),
        Kind::NotUndef(t) => inner(t) & !UNDEF,
        Kind::Variant(members) => members
            .0
            .iter()
            .fold(0, |acc, m| acc | families(m, depth + 1)),
        Kind::Alias(a) => families(&a.resolved(), depth + 1),
        // Any, Unit, Data and RichData (built-in aliases), Iterable, and the rest:
        // anything may be in them, as far as this check knows.
        _ => ALL,
    }
}

/// Whether no value is an instance of both `a` and `b`; `false` when unsure.
pub fn disjoint(a: &Type, b: &Type) -> bool {
    families(a, 0) & families(b, 0) == 0
}

/// Whether no value other than `undef` is an instance of both: a parameter given
/// `undef` takes its default, so only the other values can mismatch.
pub fn disjoint_but_undef(a: &Type, b: &Type) -> bool {
    let a = families(a, 0) & !UNDEF;
    a != 0 && a & families(b, 0) == 0
}
