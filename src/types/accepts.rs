//! Assignability: `accepts(a, b)` is true when every value of type `b` is a value of
//! type `a` (spec 001 "Types, Values, and Variables", the type hierarchy and each
//! type's section), computed as Puppet 7's `PAnyType#assignable?` does, including
//! where that differs from the spec (see `DEVIATIONS.md`).
//!
//! Three layers mirror Puppet's dispatch: [`assignable`] handles the accepting types
//! that override `assignable?` (Unit, Variant, recursive aliases); `any_assignable`
//! unwraps the accepted side (aliases, Variant, Optional, NotUndef); `kind_assignable`
//! is each type's own rule (`_assignable?`).

use super::guard::{Guard, SELF_RECURSION_IN_BOTH};
use super::model::{t, IntRange, Kind, Members, Regex, StringSpec, StructElem, Type};
use super::value::Value;
use std::sync::Arc;

/// Whether `a` accepts every value of `b` (`a.assignable?(b)`).
pub fn accepts(a: &Type, b: &Type) -> bool {
    assignable(a, b, &mut Guard::new())
}

/// Whether `t` accepts `undef` (the type is optional).
pub fn accepts_undef(ty: &Type) -> bool {
    accepts(ty, &t::undef())
}

thread_local! {
    static DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    static OVERFLOWED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Nesting limit of assignability checks. Puppet itself recurses without end on
/// some self-recursive aliases (`type Json = Variant[..., Undef, Array[Json]]`
/// compared with itself: "stack level too deep"); we stop and answer `false`, and
/// [`take_overflow`] tells the caller it happened.
const MAX_DEPTH: u32 = 160;

/// Whether an assignability check on this thread hit the nesting limit since the
/// last call (the flag is cleared).
pub fn take_overflow() -> bool {
    OVERFLOWED.with(|o| o.replace(false))
}

pub(crate) fn assignable(s: &Type, o: &Type, g: &mut Guard) -> bool {
    let depth = DEPTH.with(|d| {
        let v = d.get() + 1;
        d.set(v);
        v
    });
    if depth > MAX_DEPTH {
        OVERFLOWED.with(|o| o.set(true));
        DEPTH.with(|d| d.set(d.get() - 1));
        return false;
    }
    let r = match s.kind() {
        Kind::Unit => true,
        Kind::Alias(a) if a.self_recursive() => g.with_this(a.id(), |st, g| {
            st == SELF_RECURSION_IN_BOTH || any_assignable(s, o, g)
        }),
        Kind::Variant(ts) => {
            if matches!(o.kind(), Kind::Undef) && ts.is_empty() {
                false
            } else if let Kind::Variant(ots) = o.kind() {
                ts.is_empty() || (!ots.is_empty() && ots.iter().all(|vt| any_assignable(s, vt, g)))
            } else {
                any_assignable(s, o, g)
            }
        }
        _ => any_assignable(s, o, g),
    };
    DEPTH.with(|d| d.set(d.get() - 1));
    r
}

fn any_assignable(s: &Type, o: &Type, g: &mut Guard) -> bool {
    match o.kind() {
        Kind::Unit => true,
        Kind::Alias(oa) => {
            if oa.self_recursive() && g.add_that(oa.id()) == SELF_RECURSION_IN_BOTH {
                true
            } else {
                assignable(s, &oa.resolved(), g)
            }
        }
        Kind::Variant(ots) => {
            if matches!(s.kind(), Kind::Any) {
                return true;
            }
            if matches!(s.kind(), Kind::NotUndef(_)) && ots.is_empty() {
                return kind_assignable(s, o, g);
            }
            !ots.is_empty() && ots.iter().all(|vt| assignable(s, vt, g))
        }
        Kind::Optional(ot) => {
            accepts(s, &t::undef()) && ot.as_ref().is_none_or(|ot| accepts(s, ot))
        }
        Kind::NotUndef(ot) => match ot {
            Some(inner) if !accepts(inner, &t::undef()) => assignable(s, inner, g),
            _ => kind_assignable(s, o, g),
        },
        _ => kind_assignable(s, o, g),
    }
}

/// The size range of a string type (`derived_size_type`).
fn string_size(spec: &StringSpec) -> IntRange {
    match spec {
        StringSpec::Size(r) => *r,
        StringSpec::Value(v) => IntRange::exact(v.chars().count() as i64),
        StringSpec::Any => IntRange::DEFAULT_SIZE,
    }
}

/// Enum membership (`PEnumType#instance?` on a string).
pub(crate) fn enum_has(values: &[std::sync::Arc<str>], ci: bool, s: &str) -> bool {
    if ci {
        values.iter().any(|v| v.eq_ignore_ascii_case(s))
    } else {
        values.iter().any(|v| &**v == s)
    }
}

/// Whether each of `wanted` is a member of the Enum of `values`: through a set when both
/// are long (two Enums of thousands of strings, as an array of distinct strings is
/// typed, made a scan per member quadratic: a `filter` over 5,000 such strings took 90 s).
fn enum_has_all(values: &[std::sync::Arc<str>], ci: bool, wanted: &[std::sync::Arc<str>]) -> bool {
    if values.len().saturating_mul(wanted.len()) <= 4096 {
        return wanted.iter().all(|v| enum_has(values, ci, v));
    }
    if ci {
        let set: foldhash::HashSet<String> =
            values.iter().map(|v| v.to_ascii_lowercase()).collect();
        wanted.iter().all(|v| set.contains(&v.to_ascii_lowercase()))
    } else {
        let set: foldhash::HashSet<&str> = values.iter().map(|v| &**v).collect();
        wanted.iter().all(|v| set.contains(&**v))
    }
}

/// A tuple's size range when it has no explicit size (`size_range`).
pub(crate) fn tuple_size(types: &[Type], size: &Option<IntRange>) -> IntRange {
    match size {
        Some(s) => *s,
        None if types.is_empty() => IntRange::DEFAULT_SIZE,
        None => IntRange::exact(types.len() as i64),
    }
}

fn kind_assignable(s: &Type, o: &Type, g: &mut Guard) -> bool {
    let ok = o.kind();
    match s.kind() {
        Kind::Any | Kind::Unit => true,
        Kind::Undef => matches!(ok, Kind::Undef),
        Kind::Default => matches!(ok, Kind::Default),
        Kind::NotUndef(inner) => {
            !accepts(o, &t::undef()) && inner.as_ref().is_none_or(|i| assignable(i, o, g))
        }
        Kind::Type(inner) => match ok {
            Kind::Type(oi) => match (inner, oi) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(i), Some(oi)) => assignable(i, oi, g),
            },
            _ => false,
        },
        Kind::Scalar => ok.is_scalar_family() || matches!(ok, Kind::SemVerRange),
        Kind::ScalarData => ok.is_scalar_data_family(),
        Kind::Numeric => matches!(ok, Kind::Numeric | Kind::Integer(_) | Kind::Float(_)),
        Kind::Integer(r) => matches!(ok, Kind::Integer(or) if r.covers(or)),
        Kind::Float(r) => matches!(ok, Kind::Float(or) if r.covers(or)),
        Kind::Enum {
            values,
            case_insensitive,
        } => enum_assignable(values, case_insensitive, s, o),
        Kind::String(spec) => string_assignable(spec, o),
        Kind::Pattern(ps) => pattern_assignable(ps, s, o),
        Kind::Boolean(v) => matches!(ok, Kind::Boolean(ov) if v.is_none() || v == ov),
        Kind::Regexp(p) => matches!(ok, Kind::Regexp(op) if p.is_none() || p == op),
        Kind::SemVer(ranges) => match ok {
            Kind::SemVer(ors) => {
                ranges.is_empty()
                    || (!ors.is_empty()
                        && ors.iter().all(|or| ranges.iter().any(|r| or.covered_by(r))))
            }
            _ => false,
        },
        Kind::SemVerRange => matches!(ok, Kind::SemVerRange),
        Kind::Timespan(r) => matches!(ok, Kind::Timespan(or) if r.covers(or)),
        Kind::Timestamp(r) => matches!(ok, Kind::Timestamp(or) if r.covers(or)),
        Kind::Collection(size) => {
            let ss = size.unwrap_or(IntRange::DEFAULT_SIZE);
            match ok {
                Kind::Collection(os)
                | Kind::Array { size: os, .. }
                | Kind::Hash { size: os, .. } => ss.covers(&os.unwrap_or(IntRange::DEFAULT_SIZE)),
                Kind::Tuple { types, size } => {
                    ss.covers(&size.unwrap_or(IntRange::exact(types.len() as i64)))
                }
                Kind::Struct(elems) => ss.covers(&IntRange::exact(elems.len() as i64)),
                _ => false,
            }
        }
        Kind::Array { elem, size } => {
            let ss = size.unwrap_or(IntRange::DEFAULT_SIZE);
            match ok {
                Kind::Tuple { types, size: os } => {
                    let so = os.unwrap_or(IntRange::exact(types.len() as i64));
                    ss.covers(&so) && types.iter().all(|ot| assignable(elem, ot, g))
                }
                Kind::Array { elem: oe, size: os } => {
                    ss.covers(&os.unwrap_or(IntRange::DEFAULT_SIZE)) && assignable(elem, oe, g)
                }
                _ => false,
            }
        }
        Kind::Hash { key, value, size } => hash_assignable(key, value, size, o, g),
        Kind::Struct(elems) => struct_assignable(elems, o, g),
        Kind::Tuple { types, size } => tuple_assignable(types, size, s, o, g),
        Kind::Callable { params, block, ret } => callable_assignable(params, block, ret, o, g),
        Kind::Iterable(inner) => match inner {
            Some(i) if !accepts(i, &t::any()) => match iterable_element(o, g) {
                Some(Some(e)) => assignable(i, &e, g),
                _ => false,
            },
            _ => is_iterable(o, g),
        },
        Kind::Iterator(inner) => match ok {
            Kind::Iterator(oi) => match (inner, oi) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(i), Some(oi)) => assignable(i, oi, g),
            },
            _ => false,
        },
        Kind::CatalogEntry => ok.is_catalog_entry_family(),
        Kind::Class(name) => matches!(ok, Kind::Class(on) if name.is_none() || name == on),
        Kind::Resource { type_name, title } => match ok {
            Kind::Resource {
                type_name: on,
                title: ot,
            } => match type_name {
                None => true,
                Some(n) => {
                    on.as_ref()
                        .is_some_and(|on| on.to_lowercase() == n.to_lowercase())
                        && (title.is_none() || title == ot)
                }
            },
            _ => false,
        },
        Kind::Optional(inner) => {
            if matches!(ok, Kind::Undef) {
                return true;
            }
            let Some(i) = inner else { return true };
            match ok {
                Kind::Optional(Some(oi)) => assignable(i, oi, g),
                Kind::Optional(None) => false,
                _ => assignable(i, o, g),
            }
        }
        Kind::Sensitive(inner) => matches!(ok, Kind::Sensitive(oi) if assignable(inner, oi, g)),
        Kind::Runtime { runtime, name } => match ok {
            Kind::Runtime {
                runtime: or,
                name: on,
            } => runtime.is_none() || (runtime == or && (name.is_none() || name == on)),
            _ => false,
        },
        Kind::Binary => matches!(ok, Kind::Binary),
        Kind::Uri(p) => matches!(ok, Kind::Uri(op) if p.is_none() || p == op),
        Kind::Init(of, args) => super::init::assignable(of.as_ref(), args, o),
        Kind::Object(a) => match ok {
            Kind::Object(b) => {
                a.is_any()
                    || (a.name == b.name
                        && a.definition == b.definition
                        && (a.parameters.is_none() || a.parameters == b.parameters))
            }
            _ => false,
        },
        Kind::TypeSet => matches!(ok, Kind::TypeSet),
        Kind::Alias(a) => assignable(&a.resolved(), o, g),
        Kind::Reference(_) => s == o,
        Kind::Variant(ts) => ts.iter().any(|m| assignable(m, o, g)),
    }
}

/// `kind_assignable` for a `Enum` on the left.
fn enum_assignable(values: &[Arc<str>], case_insensitive: &bool, s: &Type, o: &Type) -> bool {
    let ok = o.kind();
    if s == o {
        return true;
    }
    if values.is_empty() && matches!(ok, Kind::String(_) | Kind::Enum { .. } | Kind::Pattern(_)) {
        return true;
    }
    match ok {
        Kind::String(StringSpec::Value(v)) => enum_has(values, *case_insensitive, v),
        Kind::Enum {
            values: ov,
            case_insensitive: oci,
        } => {
            !ov.is_empty()
                && (*case_insensitive || !*oci)
                && enum_has_all(values, *case_insensitive, ov)
        }
        _ => false,
    }
}

/// `kind_assignable` for a `String` on the left.
fn string_assignable(spec: &StringSpec, o: &Type) -> bool {
    let ok = o.kind();
    match spec {
        StringSpec::Size(sr) => match ok {
            Kind::String(os) => sr.covers(&string_size(os)),
            Kind::Enum { values, .. } => {
                if values.is_empty() {
                    sr.covers(&IntRange::DEFAULT_SIZE)
                } else {
                    let lens = values.iter().map(|v| v.chars().count() as i128);
                    let (mn, mx) =
                        lens.fold((i128::MAX, i128::MIN), |(a, b), l| (a.min(l), b.max(l)));
                    sr.lo() <= mn && sr.hi() >= mx
                }
            }
            Kind::Pattern(_) => sr.covers(&IntRange::DEFAULT_SIZE),
            _ => false,
        },
        StringSpec::Any => matches!(ok, Kind::String(_) | Kind::Enum { .. } | Kind::Pattern(_)),
        StringSpec::Value(v) => match ok {
            Kind::String(os) => os == spec || matches!(os, StringSpec::Value(ov) if ov == v),
            // Puppet 7 answers with the (truthy) single value here, whatever it is.
            Kind::Enum {
                values,
                case_insensitive,
            } => values.len() == 1 && !*case_insensitive,
            _ => false,
        },
    }
}

/// `kind_assignable` for a `Pattern` on the left.
fn pattern_assignable(ps: &Members<Regex>, s: &Type, o: &Type) -> bool {
    let ok = o.kind();
    if s == o {
        return true;
    }
    match ok {
        Kind::String(StringSpec::Value(v)) => ps.is_empty() || ps.iter().any(|p| p.is_match(v)),
        Kind::String(_) => ps.is_empty(),
        Kind::Enum { values, .. } => {
            if values.is_empty() {
                ps.is_empty()
            } else {
                ps.is_empty() || values.iter().all(|v| ps.iter().any(|p| p.is_match(v)))
            }
        }
        Kind::Pattern(_) => ps.is_empty(),
        _ => false,
    }
}

/// `kind_assignable` for a `Hash` on the left.
fn hash_assignable(
    key: &Type,
    value: &Type,
    size: &Option<IntRange>,
    o: &Type,
    g: &mut Guard,
) -> bool {
    let ok = o.kind();
    match ok {
        Kind::Hash {
            key: ok_,
            value: ov,
            size: os,
        } => {
            let o_is_empty_hash = matches!(ok_.kind(), Kind::Unit)
                && matches!(ov.kind(), Kind::Unit)
                && os.is_some_and(|r| r.is_empty_range());
            if size.is_none_or(|r| r.from == Some(0)) && o_is_empty_hash {
                return true;
            }
            assignable(key, ok_, g)
                && assignable(value, ov, g)
                && size
                    .unwrap_or(IntRange::DEFAULT_SIZE)
                    .covers(&os.unwrap_or(IntRange::DEFAULT_SIZE))
        }
        Kind::Struct(elems) => {
            size.unwrap_or(IntRange::DEFAULT_SIZE)
                .contains(elems.len() as i128)
                && elems.iter().all(|e| {
                    super::instance::instance_of(&Value::string(e.name()), key)
                        && assignable(value, &e.value, g)
                })
        }
        _ => false,
    }
}

/// `kind_assignable` for a `Struct` on the left.
fn struct_assignable(elems: &[StructElem], o: &Type, g: &mut Guard) -> bool {
    let ok = o.kind();
    match ok {
        Kind::Struct(oelems) => {
            let mut matched = 0;
            let all =
                elems
                    .iter()
                    .all(|e1| match oelems.iter().find(|e2| e2.name() == e1.name()) {
                        None => accepts(&e1.key, &t::undef()),
                        Some(e2) => {
                            matched += 1;
                            assignable(&e1.key, &e2.key, g) && assignable(&e1.value, &e2.value, g)
                        }
                    });
            all && matched == oelems.len()
        }
        Kind::Hash {
            key: okey,
            value: ovalue,
            size: osize,
        } => {
            let mut required = 0i64;
            let all = elems.iter().all(|e| {
                if accepts(&e.key, &t::undef()) {
                    true
                } else {
                    required += 1;
                    assignable(&e.value, ovalue, g)
                        && accepts(&super::generalize::generalize(&e.key), okey)
                }
            });
            all && IntRange::new(Some(required), Some(elems.len() as i64))
                .covers(&osize.unwrap_or(IntRange::DEFAULT_SIZE))
        }
        _ => false,
    }
}

/// `kind_assignable` for a `Tuple` on the left.
fn tuple_assignable(
    types: &[Type],
    size: &Option<IntRange>,
    s: &Type,
    o: &Type,
    g: &mut Guard,
) -> bool {
    let ok = o.kind();
    if s == o {
        return true;
    }
    let ss = tuple_size(types, size);
    match ok {
        Kind::Tuple {
            types: otypes,
            size: osize,
        } => {
            if !ss.covers(&tuple_size(otypes, osize)) {
                return false;
            }
            if !types.is_empty() {
                if otypes.is_empty() {
                    return ss.from == Some(0);
                }
                for (i, ot) in otypes.iter().enumerate() {
                    let st = types
                        .get(i)
                        .unwrap_or_else(|| types.last().expect("non-empty"));
                    if !assignable(st, ot, g) {
                        return false;
                    }
                }
            }
            true
        }
        Kind::Array { elem, size: osize } => {
            let so = osize.unwrap_or(IntRange::DEFAULT_SIZE);
            if !ss.covers(&so) {
                return false;
            }
            if !types.is_empty() {
                let n = (types.len() as i128).min(so.hi());
                for st in types.iter().take(n.max(0) as usize) {
                    if !assignable(st, elem, g) {
                        return false;
                    }
                }
            }
            true
        }
        _ => false,
    }
}

/// `kind_assignable` for a `Callable` on the left.
fn callable_assignable(
    params: &Option<Type>,
    block: &Option<Type>,
    ret: &Option<Type>,
    o: &Type,
    g: &mut Guard,
) -> bool {
    let ok = o.kind();
    match ok {
        Kind::Callable {
            params: op,
            block: ob,
            ret: oret,
        } => {
            if let Some(r) = ret {
                let oret = oret.clone().unwrap_or_else(t::any);
                if !assignable(r, &oret, g) {
                    return false;
                }
            }
            let Some(params) = params else { return true };
            let Some(op) = op else { return false };
            // Parameters are contravariant: the accepted callable must accept
            // every argument list this one may be called with.
            if !assignable(op, params, g) {
                return false;
            }
            let this_block = block.clone().unwrap_or_else(t::undef);
            let that_block = ob.clone().unwrap_or_else(t::undef);
            assignable(&that_block, &this_block, g)
        }
        _ => false,
    }
}

/// Whether values of `o` can be iterated (`iterable?`).
pub(crate) fn is_iterable(o: &Type, g: &mut Guard) -> bool {
    match o.kind() {
        Kind::Enum { .. }
        | Kind::Integer(_)
        | Kind::String(_)
        | Kind::Collection(_)
        | Kind::Array { .. }
        | Kind::Hash { .. }
        | Kind::Struct(_)
        | Kind::Tuple { .. }
        | Kind::Iterable(_)
        | Kind::Iterator(_) => true,
        Kind::Type(Some(inner)) => match inner.kind() {
            Kind::Enum { .. } => true,
            Kind::Integer(r) => r.from.is_some() && r.to.is_some(),
            _ => false,
        },
        Kind::Alias(a) => {
            if a.self_recursive() {
                g.with_this(a.id(), |st, g| {
                    st & super::guard::SELF_RECURSION_IN_THIS == 0 && is_iterable(&a.resolved(), g)
                })
            } else {
                is_iterable(&a.resolved(), g)
            }
        }
        _ => false,
    }
}

/// The element type of iterating over `o` (`iterable_type.element_type`):
/// `None` when `o` is not iterable, `Some(None)` when the element type is unknown.
pub(crate) fn iterable_element(o: &Type, g: &mut Guard) -> Option<Option<Type>> {
    let key_pair = |k: Type, v: Type| t::tuple(vec![k, v], Some(IntRange::exact(2)));
    match o.kind() {
        Kind::Enum { .. } | Kind::String(_) => Some(Some(t::string_sized(IntRange::exact(1)))),
        Kind::Integer(_) => Some(Some(t::integer())),
        Kind::Array { elem, .. } => Some(if matches!(elem.kind(), Kind::Any) {
            None
        } else {
            Some(elem.clone())
        }),
        Kind::Hash { key, value, size } => {
            let is_default = matches!(key.kind(), Kind::Any)
                && matches!(value.kind(), Kind::Any)
                && size.is_none();
            let is_empty = size.is_some_and(|s| s.is_empty_range());
            if is_default || is_empty {
                Some(Some(key_pair(t::unit(), t::unit())))
            } else {
                Some(Some(key_pair(key.clone(), value.clone())))
            }
        }
        Kind::Struct(elems) => {
            if elems.is_empty() {
                Some(Some(key_pair(t::unit(), t::unit())))
            } else {
                Some(Some(key_pair(
                    t::variant(elems.iter().map(|e| e.key.clone()).collect()),
                    t::variant(elems.iter().map(|e| e.value.clone()).collect()),
                )))
            }
        }
        Kind::Tuple { types, .. } => Some(Some(t::variant(types.clone()))),
        Kind::Iterable(i) | Kind::Iterator(i) => Some(i.clone()),
        Kind::Type(Some(inner)) => match inner.kind() {
            Kind::Enum { .. } => Some(Some(inner.clone())),
            Kind::Integer(r) if r.from.is_some() && r.to.is_some() => Some(Some(inner.clone())),
            _ => None,
        },
        Kind::Alias(a) => {
            if a.self_recursive() {
                g.with_this(a.id(), |st, g| {
                    if st & super::guard::SELF_RECURSION_IN_THIS == 0 {
                        iterable_element(&a.resolved(), g)
                    } else {
                        None
                    }
                })
            } else {
                iterable_element(&a.resolved(), g)
            }
        }
        _ => None,
    }
}
