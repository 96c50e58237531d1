//! `common(a, b)`: the most specific type that both `a` and `b` are assignable to,
//! as Puppet 7's `TypeCalculator#common_type` computes it. This is the runtime's
//! version of spec 001's `A ∪ B`; it differs from the spec's table in many places
//! (e.g. `Integer ∪ String` is `ScalarData`, not `Scalar`); Puppet wins, see
//! `DEVIATIONS.md` and `DISCREPANCIES.md` section A.

use super::accepts::accepts;
use super::model::{t, FloatRange, IntRange, Kind, StringSpec, Type};

pub fn common(a: &Type, b: &Type) -> Type {
    // Puppet treats `Undef` as "no type" here (`is_pnil?`).
    if matches!(a.kind(), Kind::Undef) {
        return b.clone();
    }
    if matches!(b.kind(), Kind::Undef) {
        return a.clone();
    }
    if matches!(a.kind(), Kind::Unit) {
        return b.clone();
    }
    if matches!(b.kind(), Kind::Unit) {
        return a.clone();
    }
    if accepts(a, b) {
        return a.clone();
    }
    if accepts(b, a) {
        return b.clone();
    }
    match (a.kind(), b.kind()) {
        (Kind::Array { elem: e1, .. }, Kind::Array { elem: e2, .. }) => {
            return t::array_of(common(e1, e2));
        }
        (
            Kind::Hash {
                key: k1, value: v1, ..
            },
            Kind::Hash {
                key: k2, value: v2, ..
            },
        ) => {
            return t::hash_of(common(k1, k2), common(v1, v2));
        }
        (Kind::Class(_), Kind::Class(_)) => return t::class(),
        (Kind::Resource { type_name: n1, .. }, Kind::Resource { type_name: n2, .. }) => {
            return if n1 == n2 {
                t::resource_named(n1.as_deref(), None)
            } else {
                t::resource()
            };
        }
        (Kind::Integer(r1), Kind::Integer(r2)) => {
            let from = if r1.lo() <= r2.lo() { r1.from } else { r2.from };
            let to = if r1.hi() >= r2.hi() { r1.to } else { r2.to };
            return Type::new(Kind::Integer(IntRange { from, to }));
        }
        (Kind::Float(r1), Kind::Float(r2)) => {
            return Type::new(Kind::Float(FloatRange {
                from: r1.from.min(r2.from),
                to: r1.to.max(r2.to),
            }));
        }
        (Kind::String(s1), Kind::String(s2)) => {
            let v1 = string_value(s1);
            let v2 = string_value(s2);
            let z1 = string_size(s1);
            let z2 = string_size(s2);
            if z1.is_none() || z2.is_none() {
                return match (v1, v2) {
                    (Some(x), Some(y)) => t::enumeration(&[x, y], false),
                    _ => t::string(),
                };
            }
            let c = common(
                &Type::new(Kind::Integer(z1.expect("size"))),
                &Type::new(Kind::Integer(z2.expect("size"))),
            );
            if let Kind::Integer(r) = c.kind() {
                return t::string_sized(*r);
            }
            return t::string();
        }
        (Kind::String(s1), Kind::Enum { values, .. }) => {
            return match string_value(s1) {
                None => t::enum_any(),
                Some(v) => {
                    let mut all: Vec<String> = values.iter().map(|x| x.to_string()).collect();
                    all.push(v.to_string());
                    t::enumeration(&all, false)
                }
            };
        }
        (Kind::Pattern(p1), Kind::Pattern(p2)) => {
            let mut all = p1.0.clone();
            all.extend(p2.iter().cloned());
            return t::pattern(all);
        }
        (Kind::Enum { values: v1, .. }, Kind::Enum { values: v2, .. }) => {
            let all: Vec<String> = v1.iter().chain(v2.iter()).map(|x| x.to_string()).collect();
            return t::enumeration(&all, false);
        }
        (Kind::Enum { values, .. }, Kind::String(s2)) => {
            return match string_value(s2) {
                None => t::enum_any(),
                Some(v) => {
                    let mut all: Vec<String> = values.iter().map(|x| x.to_string()).collect();
                    all.push(v.to_string());
                    t::enumeration(&all, false)
                }
            };
        }
        (Kind::Variant(t1), Kind::Variant(t2)) => {
            let mut all = t1.0.clone();
            for m in t2.iter() {
                if !all.contains(m) {
                    all.push(m.clone())
                }
            }
            return t::variant(all);
        }
        (Kind::Regexp(_), Kind::Regexp(_)) => return t::regexp(),
        (Kind::Callable { .. }, Kind::Callable { .. }) => return t::callable(),
        _ => {}
    }
    if both(&t::numeric(), a, b) {
        return t::numeric();
    }
    if both(&t::scalar_data(), a, b) {
        return t::scalar_data();
    }
    if both(&t::scalar(), a, b) {
        return t::scalar();
    }
    if both(&t::data(), a, b) {
        return t::data();
    }
    if let (Kind::Type(i1), Kind::Type(i2)) = (a.kind(), b.kind()) {
        return match (i1, i2) {
            (Some(x), Some(y)) => t::type_of(common(x, y)),
            _ => t::type_any(),
        };
    }
    if both(&t::rich_data(), a, b) {
        return t::rich_data();
    }
    if let (Kind::Runtime { .. }, Kind::Runtime { .. }) = (a.kind(), b.kind()) {
        if a == b {
            return a.clone();
        }
    }
    t::any()
}

fn both(c: &Type, a: &Type, b: &Type) -> bool {
    accepts(c, a) && accepts(c, b)
}

fn string_value(s: &StringSpec) -> Option<&str> {
    match s {
        StringSpec::Value(v) => Some(v),
        _ => None,
    }
}

/// Puppet's `size_type` of a string type: only an explicit size (not a value).
fn string_size(s: &StringSpec) -> Option<IntRange> {
    match s {
        StringSpec::Size(r) => Some(*r),
        _ => None,
    }
}
