//! `instance_of(value, type)`: whether a value is an instance of a type, as the
//! `=~` operator decides it (spec 001, each type's "values" description; Puppet 7's
//! `instance?` methods).

use super::accepts::{accepts, enum_has};
use super::guard::{Guard, SELF_RECURSION_IN_BOTH};
use super::infer::infer;
use super::model::{t, Kind, StringSpec, Type};
use super::value::Value;

pub fn instance_of(v: &Value, ty: &Type) -> bool {
    instance(v, ty, &mut Guard::new())
}

/// Nesting limit of instance checks: past it (an alias that only names itself, through
/// however many aliases) the answer is `true`, so an undecidable type never makes a
/// finding. Real values and types stay far below it.
const MAX_INSTANCE_DEPTH: u32 = 400;

pub(crate) fn instance(v: &Value, ty: &Type, g: &mut Guard) -> bool {
    if g.depth >= MAX_INSTANCE_DEPTH {
        return true;
    }
    g.depth += 1;
    let answer = instance_unbounded(v, ty, g);
    g.depth -= 1;
    answer
}

fn instance_unbounded(v: &Value, ty: &Type, g: &mut Guard) -> bool {
    // An iterator is an instance of what accepts its type (Puppet's
    // `PIteratorType#instance?` checks the element type it was made with).
    if let Value::Iterator(_) = v {
        return accepts(ty, &infer(v));
    }
    match ty.kind() {
        Kind::Any | Kind::Unit => true,
        Kind::Undef => matches!(v, Value::Undef),
        Kind::Default => matches!(v, Value::Default),
        Kind::NotUndef(i) => {
            !matches!(v, Value::Undef) && i.as_ref().is_none_or(|i| instance(v, i, g))
        }
        Kind::Type(i) => match v {
            Value::Type(vt) => i.as_ref().is_none_or(|i| accepts(i, vt)),
            _ => false,
        },
        Kind::Scalar => match v {
            Value::String(_)
            | Value::Integer(_)
            | Value::Float(_)
            | Value::Bool(_)
            | Value::Regexp(_) => true,
            Value::Array(_) | Value::Hash(_) | Value::Type(_) | Value::Undef => false,
            _ => accepts(ty, &infer(v)),
        },
        Kind::ScalarData => matches!(
            v,
            Value::String(_) | Value::Integer(_) | Value::Float(_) | Value::Bool(_)
        ),
        Kind::Numeric => matches!(v, Value::Integer(_) | Value::Float(_)),
        Kind::Integer(r) => matches!(v, Value::Integer(i) if r.contains(i128::from(*i))),
        Kind::Float(r) => matches!(v, Value::Float(f) if *f >= r.from && *f <= r.to),
        Kind::String(spec) => match v {
            Value::String(s) => match spec {
                StringSpec::Any => true,
                StringSpec::Size(r) => r.contains(s.chars().count() as i128),
                StringSpec::Value(x) => x == s,
            },
            _ => false,
        },
        Kind::Enum {
            values,
            case_insensitive,
        } => matches!(v, Value::String(s) if enum_has(values, *case_insensitive, s)),
        Kind::Pattern(ps) => {
            matches!(v, Value::String(s) if ps.is_empty() || ps.iter().any(|p| p.is_match(s)))
        }
        Kind::Boolean(b) => matches!(v, Value::Bool(x) if b.is_none_or(|b| b == *x)),
        Kind::Regexp(p) => matches!(v, Value::Regexp(r) if p.as_ref().is_none_or(|p| p == r)),
        Kind::SemVer(ranges) => {
            matches!(v, Value::SemVer(ver) if ranges.is_empty() || ranges.iter().any(|r| r.includes(ver)))
        }
        Kind::SemVerRange => matches!(v, Value::SemVerRange(_)),
        Kind::Timespan(r) => matches!(v, Value::Timespan(n) if r.lo() <= *n && *n <= r.hi()),
        Kind::Timestamp(r) => matches!(v, Value::Timestamp(n) if r.lo() <= *n && *n <= r.hi()),
        Kind::Collection(size) => match v {
            Value::Array(a) => size.is_none_or(|s| s.contains(a.len() as i128)),
            Value::Hash(h) => size.is_none_or(|s| s.contains(h.len() as i128)),
            _ => false,
        },
        Kind::Array { elem, size } => match v {
            Value::Array(a) => {
                a.iter().all(|e| instance(e, elem, g))
                    && size.is_none_or(|s| s.contains(a.len() as i128))
            }
            _ => false,
        },
        Kind::Hash { key, value, size } => match v {
            Value::Hash(h) => {
                h.keys().all(|k| instance(k, key, g))
                    && h.values().all(|x| instance(x, value, g))
                    && size.is_none_or(|s| s.contains(h.len() as i128))
            }
            _ => false,
        },
        Kind::Struct(elems) => match v {
            Value::Hash(h) => {
                let mut matched = 0;
                let all = elems.iter().all(|e| match h.get(&Value::string(e.name())) {
                    None => accepts(&e.key, &t::undef()),
                    Some(x) => {
                        matched += 1;
                        instance(x, &e.value, g)
                    }
                });
                all && matched == h.len()
            }
            _ => false,
        },
        Kind::Tuple { types, size } => match v {
            Value::Array(a) => {
                match size {
                    Some(s) => {
                        if !s.contains(a.len() as i128) {
                            return false;
                        }
                    }
                    None => {
                        if !(types.is_empty() || types.len() == a.len()) {
                            return false;
                        }
                    }
                }
                types.is_empty()
                    || a.iter().enumerate().all(|(i, e)| {
                        let et = types
                            .get(i)
                            .unwrap_or_else(|| types.last().expect("non-empty"));
                        instance(e, et, g)
                    })
            }
            _ => false,
        },
        Kind::Variant(ts) => ts.iter().any(|m| instance(v, m, g)),
        Kind::Optional(i) => {
            matches!(v, Value::Undef) || i.as_ref().is_some_and(|i| instance(v, i, g))
        }
        Kind::Iterable(i) => {
            if i.as_ref().is_none_or(|i| accepts(i, &t::any())) {
                match v {
                    Value::String(_) | Value::Hash(_) | Value::Array(_) => true,
                    Value::Integer(n) => *n >= 0,
                    Value::Type(tt) => match tt.dealiased().as_ref().map(Type::kind) {
                        Some(Kind::Enum { .. }) => true,
                        Some(Kind::Integer(r)) => r.from.is_some() && r.to.is_some(),
                        _ => false,
                    },
                    _ => false,
                }
            } else {
                accepts(ty, &infer(v))
            }
        }
        Kind::Sensitive(i) => matches!(v, Value::Sensitive(x) if instance(x, i, g)),
        Kind::Binary => matches!(v, Value::Binary(_)),
        Kind::Uri(p) => matches!(v, Value::Uri(u) if p.as_ref().is_none_or(|p| p == u)),
        Kind::Alias(a) => {
            if a.self_recursive() {
                let body = a.resolved();
                g.with_that(v.id(), |_, g| {
                    g.with_this(a.id(), |st, g| {
                        st != SELF_RECURSION_IN_BOTH && instance(v, &body, g)
                    })
                })
            } else {
                instance(v, &a.resolved(), g)
            }
        }
        Kind::Init(of, args) => super::init::instance(v, of.as_ref(), args),
        // Every type is a Pcore object (`Integer =~ Object`); an object value is one of
        // its own type.
        Kind::Object(o) => match v {
            Value::Type(_) => o.is_any(),
            Value::Object(object) => {
                o.is_any()
                    || o.name.as_deref() == Some(&*object.type_name)
                        && o.parameters
                            .as_ref()
                            .is_none_or(|ps| object.matches_parameters(ps))
            }
            _ => false,
        },
        Kind::Iterator(_)
        | Kind::CatalogEntry
        | Kind::Class(_)
        | Kind::Resource { .. }
        | Kind::Callable { .. }
        | Kind::Runtime { .. }
        | Kind::TypeSet
        | Kind::Reference(_) => false,
    }
}
