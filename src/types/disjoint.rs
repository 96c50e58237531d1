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
    structurally_disjoint(a, b, false, 0)
}

/// Whether no value other than `undef` is an instance of both: a parameter given
/// `undef` takes its default, so only the other values can mismatch.
pub fn disjoint_but_undef(a: &Type, b: &Type) -> bool {
    families(a, 0) & !UNDEF != 0 && structurally_disjoint(a, b, true, 0)
}

/// Families first; then, for types of the same family, what every value of one must
/// hold and no value of the other can: the element at a position every tuple has, or a
/// size no instance of the other has. `skip_undef` leaves out `undef` as a value of `a`.
fn structurally_disjoint(a: &Type, b: &Type, skip_undef: bool, depth: usize) -> bool {
    let mut of_a = families(a, 0);
    if skip_undef {
        of_a &= !UNDEF;
    }
    if of_a & families(b, 0) == 0 {
        return true;
    }
    if depth > MAX_DEPTH {
        return false;
    }
    let d = depth + 1;
    let apart = |x: &Type, y: &Type| structurally_disjoint(x, y, false, d);
    // Unions on either side: every member must be apart.
    match a.kind() {
        Kind::Alias(alias) => return structurally_disjoint(&alias.resolved(), b, skip_undef, d),
        Kind::Variant(members) => {
            return members
                .iter()
                .all(|m| structurally_disjoint(m, b, skip_undef, d))
        }
        Kind::Optional(Some(t)) => {
            return (skip_undef || families(b, 0) & UNDEF == 0)
                && structurally_disjoint(t, b, skip_undef, d)
        }
        Kind::NotUndef(Some(t)) => return structurally_disjoint(t, b, skip_undef, d),
        _ => {}
    }
    match b.kind() {
        Kind::Alias(alias) => return structurally_disjoint(a, &alias.resolved(), skip_undef, d),
        Kind::Variant(members) => {
            return members
                .iter()
                .all(|m| structurally_disjoint(a, m, skip_undef, d))
        }
        Kind::Optional(Some(t)) => {
            return of_a & UNDEF == 0 && structurally_disjoint(a, t, skip_undef, d)
        }
        Kind::NotUndef(Some(t)) => return structurally_disjoint(a, t, skip_undef, d),
        _ => {}
    }
    let (Some(seq_a), Some(seq_b)) = (Sequence::of(a), Sequence::of(b)) else {
        return false;
    };
    if seq_a.size.hi() < seq_b.size.lo() || seq_b.size.hi() < seq_a.size.lo() {
        return true;
    }
    // A value of both has at least the larger of their least sizes: at every position
    // below it, the element types must meet.
    let always = seq_a.size.lo().max(seq_b.size.lo()).clamp(0, 64) as usize;
    (0..always).any(|i| match (seq_a.element(i), seq_b.element(i)) {
        (Some(x), Some(y)) => apart(x, y),
        _ => false,
    })
}

/// An array type or a tuple type seen alike: a size range and the type at each index.
struct Sequence<'t> {
    size: super::model::IntRange,
    /// One type for every index (an array), or one per index, the last repeated
    /// beyond them (a tuple with a size range, spec "Tuple").
    types: &'t [Type],
}

impl<'t> Sequence<'t> {
    fn of(ty: &'t Type) -> Option<Sequence<'t>> {
        use super::model::IntRange;
        match ty.kind() {
            Kind::Array { elem, size } => Some(Sequence {
                size: size.unwrap_or(IntRange::DEFAULT_SIZE),
                types: std::slice::from_ref(elem),
            }),
            Kind::Tuple { types, size } => Some(Sequence {
                size: size.unwrap_or(IntRange::exact(types.len() as i64)),
                types,
            }),
            _ => None,
        }
    }

    fn element(&self, index: usize) -> Option<&'t Type> {
        self.types.get(index).or(self.types.last())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::t;

    #[test]
    fn a_tuple_is_apart_from_an_array_when_an_element_always_present_is() {
        let tuple = t::tuple(vec![t::string(), t::integer()], None);
        assert!(disjoint(&tuple, &t::array_of(t::string())));
        assert!(!disjoint(&tuple, &t::array_of(t::scalar())));
        // An empty array is both an Array[String] and an Array[Integer].
        assert!(!disjoint(
            &t::array_of(t::string()),
            &t::array_of(t::integer())
        ));
    }

    #[test]
    fn undef_is_not_apart_from_an_optional() {
        let optional = t::optional(t::string());
        assert!(!disjoint(&t::undef(), &optional));
        assert!(disjoint(&t::integer(), &optional));
        assert!(disjoint_but_undef(&t::optional(t::integer()), &t::string()));
        assert!(!disjoint_but_undef(&t::undef(), &t::string()));
    }
}
