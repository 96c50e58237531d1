//! Type inference of values (spec 001 "Type inference"; Puppet 7's
//! `TypeCalculator#infer` and `#infer_set`).
//!
//! * [`infer_detailed`] is what `type(x)` prints: a Tuple per array, a Struct per
//!   hash with non-empty string keys, `Integer[v, v]` per integer.
//! * [`infer`] is `type(x, 'reduced')`: arrays and hashes reduced to one element
//!   type with `common`, with their exact size.
//! * [`infer_generalized`] is `type(x, 'generalized')`: `generalize(infer(x))`.

use super::common::common;
use super::generalize::generalize;
use super::model::{t, FloatRange, IntRange, Kind, StructElem, TimeRange, Type};
use super::semver_range::VersionRange;
use super::value::Value;

pub fn infer(v: &Value) -> Type {
    match v {
        Value::Array(a) => {
            if a.is_empty() {
                return t::empty_array();
            }
            let elem = reduce(a.iter());
            t::array_sized(elem, Some(IntRange::exact(a.len() as i64)))
        }
        Value::Hash(h) => {
            if h.is_empty() {
                return t::empty_hash();
            }
            t::hash_sized(
                reduce(h.keys()),
                reduce(h.values()),
                Some(IntRange::exact(h.len() as i64)),
            )
        }
        _ => infer_scalar(v),
    }
}

fn reduce<'a>(values: impl Iterator<Item = &'a Value>) -> Type {
    let mut acc: Option<Type> = None;
    for v in values {
        let ti = infer(v);
        acc = Some(match acc {
            None => ti,
            Some(a) => common(&a, &ti),
        });
    }
    acc.unwrap_or_else(t::unit)
}

pub fn infer_generalized(v: &Value) -> Type {
    generalize(&infer(v))
}

pub fn infer_detailed(v: &Value) -> Type {
    match v {
        Value::Array(a) => {
            if a.is_empty() {
                return t::empty_array();
            }
            t::tuple(a.iter().map(infer_detailed).collect(), None)
        }
        Value::Hash(h) => {
            if h.is_empty() {
                return t::empty_hash();
            }
            if h.keys()
                .all(|k| matches!(k, Value::String(s) if !s.is_empty()))
            {
                return t::structure_of(
                    h.iter()
                        .map(|(k, v)| StructElem {
                            key: t::string_value(k.as_str().unwrap_or_default()),
                            value: infer_detailed(v),
                        })
                        .collect(),
                );
            }
            let kt = t::variant(h.keys().map(infer_detailed).collect());
            let vt = t::variant(h.values().map(infer_detailed).collect());
            t::hash_sized(kt, vt, Some(IntRange::exact(h.len() as i64)))
        }
        Value::SemVer(ver) => Type::new(Kind::SemVer(vec![VersionRange::exact(ver)])),
        _ => infer(v),
    }
}

fn infer_scalar(v: &Value) -> Type {
    match v {
        Value::Undef => t::undef(),
        Value::Default => t::default(),
        Value::Bool(b) => t::boolean_value(*b),
        Value::Integer(i) => t::integer_value(*i),
        Value::Float(f) => Type::new(Kind::Float(FloatRange { from: *f, to: *f })),
        Value::String(s) => t::string_value(s),
        Value::Regexp(r) => Type::new(Kind::Regexp(Some(r.clone()))),
        Value::Type(ty) => t::type_of(ty.clone()),
        Value::SemVer(_) => t::semver(),
        Value::SemVerRange(_) => t::semver_range(),
        Value::Timespan(n) => Type::new(Kind::Timespan(TimeRange {
            from: Some(*n),
            to: Some(*n),
        })),
        Value::Timestamp(n) => Type::new(Kind::Timestamp(TimeRange {
            from: Some(*n),
            to: Some(*n),
        })),
        Value::Sensitive(inner) => t::sensitive_of(infer(inner)),
        Value::Binary(_) => t::binary(),
        Value::Uri(u) => Type::new(Kind::Uri(Some(u.clone()))),
        Value::Iterator(it) => t::iterator_of(it.element_type.clone()),
        Value::Object(o) => o.detailed_type(),
        Value::Array(_) | Value::Hash(_) => infer(v),
    }
}

/// The element type of an iterator made from `v` (`[1, 2].reverse_each` is an
/// `Iterator[Variant[Integer[1, 1], Integer[2, 2]]]`): Puppet's `Iterable.on(v)`, the
/// distinct detailed types of the elements, a hash's as `Tuple[K, V, 2, 2]`, a string's
/// as `String[1, 1]`, `0..n-1` for an integer `n`; `Unit` when there are none. `None`
/// for a value that cannot be iterated.
pub fn iteration_element_type(v: &Value) -> Option<Type> {
    let distinct = |types: Vec<Type>| -> Type {
        let mut unique: Vec<Type> = Vec::with_capacity(types.len());
        for ty in types {
            if !unique.contains(&ty) {
                unique.push(ty);
            }
        }
        match unique.len() {
            0 => t::unit(),
            1 => unique.pop().expect("one type"),
            _ => t::variant_raw(unique),
        }
    };
    Some(match v {
        Value::Array(items) => distinct(items.iter().map(infer_detailed).collect()),
        Value::Hash(h) if h.is_empty() => t::unit(),
        Value::Hash(h) => {
            let size = Some(IntRange::exact(2));
            let keys = distinct(h.keys().map(infer_detailed).collect());
            let values = distinct(h.values().map(infer_detailed).collect());
            t::tuple(vec![keys, values], size)
        }
        Value::String(_) => t::string_sized(IntRange::exact(1)),
        Value::Integer(n) if *n <= 0 => t::unit(),
        Value::Integer(n) => t::integer_range(Some(0), Some(n - 1)),
        Value::Type(ty) => {
            let ty = ty.dealiased()?;
            match ty.kind() {
                Kind::Integer(r) if r.from.is_some() && r.to.is_some() => ty.clone(),
                Kind::Enum { .. } => ty.clone(),
                _ => return None,
            }
        }
        Value::Iterator(it) => it.element_type.clone(),
        _ => return None,
    })
}
