//! `normalize(t)`: the canonical form of a type, as Puppet's `normalize` computes it
//! (spec 001 "Variant" and "Optional"): nested Variants flattened, `Undef` members
//! turned into `Optional[...]`, `Optional[Optional[T]]` = `Optional[T]`,
//! `NotUndef[T]` = `T` when `T` does not accept undef, Enums/Patterns/ranges merged.
//! Aliases are left as they are (their bodies are normalised when resolved), so
//! normalisation is finite on recursive aliases.

use super::accepts::accepts;
use super::model::{t, FloatRange, IntRange, Kind, Members, TimeRange, Type};

pub fn normalize(ty: &Type) -> Type {
    match ty.kind() {
        Kind::Type(i) => ty.map_contained(i, normalize, t::type_any, t::type_of),
        Kind::Iterable(i) => ty.map_contained(i, normalize, t::iterable, t::iterable_of),
        Kind::Iterator(i) => ty.map_contained(i, normalize, t::iterator, t::iterator_of),
        Kind::Sensitive(i) => {
            let n = normalize(i);
            if n.ptr_eq(i) {
                ty.clone()
            } else {
                t::sensitive_of(n)
            }
        }
        Kind::NotUndef(i) => {
            let Some(i) = i else { return ty.clone() };
            let n = normalize(i);
            match n.kind() {
                Kind::Optional(inner) => match inner {
                    Some(x) => normalize(&t::not_undef(x.clone())),
                    None => t::not_undef_any(),
                },
                _ if !accepts(&n, &t::undef()) => n,
                _ => {
                    if n.ptr_eq(i) {
                        ty.clone()
                    } else {
                        t::not_undef(n)
                    }
                }
            }
        }
        Kind::Optional(i) => {
            let Some(i) = i else { return ty.clone() };
            let n = normalize(i);
            match n.kind() {
                Kind::NotUndef(inner) => match inner {
                    Some(x) => normalize(&t::optional(x.clone())),
                    None => t::optional_any(),
                },
                _ if accepts(&n, &t::undef()) => n,
                _ => {
                    if n.ptr_eq(i) {
                        ty.clone()
                    } else {
                        t::optional(n)
                    }
                }
            }
        }
        Kind::Collection(_) => t::collection(),
        Kind::Array { elem, size } => {
            if matches!(elem.kind(), Kind::Any) {
                return t::array();
            }
            let n = normalize(elem);
            if n.ptr_eq(elem) {
                ty.clone()
            } else {
                Type::new(Kind::Array {
                    elem: n,
                    size: *size,
                })
            }
        }
        Kind::Hash { key, value, size } => {
            let is_default = matches!(key.kind(), Kind::Any)
                && matches!(value.kind(), Kind::Any)
                && size.is_none();
            if is_default || size.is_some_and(|s| s.is_empty_range()) {
                return ty.clone();
            }
            Type::new(Kind::Hash {
                key: normalize(key),
                value: normalize(value),
                size: *size,
            })
        }
        Kind::Struct(_) | Kind::Tuple { .. } | Kind::Callable { .. } => {
            ty.map_components(normalize)
        }
        Kind::Variant(ts) => normalize_variant(ty, ts),
        _ => ty.clone(),
    }
}

fn normalize_variant(ty: &Type, ts: &Members<Type>) -> Type {
    if ts.is_empty() {
        return ty.clone();
    }
    let types: Vec<Type> = ts.iter().map(normalize).collect();
    let modified = types.iter().zip(ts.iter()).any(|(a, b)| !a.ptr_eq(b));
    if types.len() == 1 {
        return types[0].clone();
    }
    if types
        .iter()
        .any(|m| matches!(m.kind(), Kind::Undef | Kind::Optional(_)))
    {
        let members: Vec<Type> = types
            .iter()
            .filter(|m| !matches!(m.kind(), Kind::Undef))
            .map(|m| match m.kind() {
                Kind::Optional(Some(i)) => i.clone(),
                Kind::Optional(None) => t::any(),
                _ => m.clone(),
            })
            .collect();
        if members.is_empty() {
            return t::optional_any();
        }
        return normalize(&t::optional(t::variant(members)));
    }
    let mut types: Vec<Type> = flatten(types);
    let size_before = types.len();
    types = swap_not_undefs(types);
    types = merge_enums(types);
    types = merge_patterns(types);
    types = merge_semvers(types);
    types = merge_numbers(types, NumKind::Integer);
    types = merge_numbers(types, NumKind::Float);
    types = merge_numbers(types, NumKind::Timespan);
    types = merge_numbers(types, NumKind::Timestamp);
    if types.len() == 1 {
        types.pop().expect("one")
    } else if modified || types.len() != size_before {
        t::variant(types)
    } else {
        ty.clone()
    }
}

fn flatten(types: Vec<Type>) -> Vec<Type> {
    let mut out = Vec::with_capacity(types.len());
    for m in types {
        match m.kind() {
            Kind::Variant(inner) => out.extend(inner.iter().cloned()),
            _ => out.push(m),
        }
    }
    out
}

fn swap_not_undefs(types: Vec<Type>) -> Vec<Type> {
    if types
        .iter()
        .filter(|m| matches!(m.kind(), Kind::NotUndef(_)))
        .count()
        <= 1
    {
        return types;
    }
    let (nus, mut others): (Vec<Type>, Vec<Type>) = types
        .into_iter()
        .partition(|m| matches!(m.kind(), Kind::NotUndef(_)));
    {
        let inner: Vec<Type> = nus
            .iter()
            .map(|m| match m.kind() {
                Kind::NotUndef(Some(i)) => i.clone(),
                _ => t::any(),
            })
            .collect();
        others.push(t::not_undef(normalize(&t::variant(inner))));
        others
    }
}

fn merge_enums(types: Vec<Type>) -> Vec<Type> {
    let mut types = types;
    if types.len() > 1 {
        let is_cs = |m: &Type| match m.kind() {
            Kind::Enum {
                values,
                case_insensitive,
            } => !values.is_empty() && !case_insensitive,
            Kind::String(super::model::StringSpec::Value(_)) => true,
            _ => false,
        };
        if types.iter().filter(|m| is_cs(m)).count() > 1 {
            let (enums, mut others): (Vec<Type>, Vec<Type>) = types.into_iter().partition(is_cs);
            let mut values: Vec<String> = Vec::new();
            for e in &enums {
                match e.kind() {
                    Kind::Enum { values: vs, .. } => {
                        values.extend(vs.iter().map(|v| v.to_string()))
                    }
                    Kind::String(super::model::StringSpec::Value(v)) => values.push(v.to_string()),
                    _ => {}
                }
            }
            others.push(t::enumeration(&values, false));
            types = others;
        }
    }
    if types.len() > 1 {
        let is_ci = |m: &Type| matches!(m.kind(), Kind::Enum { values, case_insensitive: true } if !values.is_empty());
        if types.iter().filter(|m| is_ci(m)).count() > 1 {
            let (enums, mut others): (Vec<Type>, Vec<Type>) = types.into_iter().partition(is_ci);
            let mut values: Vec<String> = Vec::new();
            for e in &enums {
                if let Kind::Enum { values: vs, .. } = e.kind() {
                    values.extend(vs.iter().map(|v| v.to_lowercase()));
                }
            }
            others.push(t::enumeration(&values, true));
            types = others;
        }
    }
    types
}

fn merge_patterns(types: Vec<Type>) -> Vec<Type> {
    if types.len() > 1
        && types
            .iter()
            .filter(|m| matches!(m.kind(), Kind::Pattern(_)))
            .count()
            > 1
    {
        let (pats, mut others): (Vec<Type>, Vec<Type>) = types
            .into_iter()
            .partition(|m| matches!(m.kind(), Kind::Pattern(_)));
        let mut all = Vec::new();
        for p in &pats {
            if let Kind::Pattern(rs) = p.kind() {
                all.extend(rs.iter().cloned());
            }
        }
        others.push(t::pattern(all));
        return others;
    }
    types
}

fn merge_semvers(types: Vec<Type>) -> Vec<Type> {
    if types.len() > 1
        && types
            .iter()
            .filter(|m| matches!(m.kind(), Kind::SemVer(_)))
            .count()
            > 1
    {
        let (svs, others): (Vec<Type>, Vec<Type>) = types
            .into_iter()
            .partition(|m| matches!(m.kind(), Kind::SemVer(_)));
        let mut ranges = Vec::new();
        for s in &svs {
            if let Kind::SemVer(rs) = s.kind() {
                ranges.extend(rs.iter().cloned());
            }
        }
        let mut out = vec![Type::new(Kind::SemVer(ranges))];
        out.extend(others);
        return out;
    }
    types
}

#[derive(Clone, Copy, PartialEq)]
enum NumKind {
    Integer,
    Float,
    Timespan,
    Timestamp,
}

fn num_kind(m: &Type) -> Option<NumKind> {
    match m.kind() {
        Kind::Integer(_) => Some(NumKind::Integer),
        Kind::Float(_) => Some(NumKind::Float),
        Kind::Timespan(_) => Some(NumKind::Timespan),
        Kind::Timestamp(_) => Some(NumKind::Timestamp),
        _ => None,
    }
}

/// Puppet's `merge` of two ranges of the same kind: their union when they overlap
/// (or, for integers, touch), else nothing.
pub(crate) fn merge_two(a: &Type, b: &Type) -> Option<Type> {
    match (a.kind(), b.kind()) {
        (Kind::Integer(x), Kind::Integer(y)) => {
            let intersect = !(x.hi() < y.lo() || y.hi() < x.lo());
            let adjacent = (x.to.is_some() && y.from.is_some() && x.hi() + 1 == y.lo())
                || (y.to.is_some() && x.from.is_some() && y.hi() + 1 == x.lo());
            if intersect || adjacent {
                let from = if x.lo() <= y.lo() { x.from } else { y.from };
                let to = if x.hi() >= y.hi() { x.to } else { y.to };
                Some(Type::new(Kind::Integer(IntRange { from, to })))
            } else {
                None
            }
        }
        (Kind::Float(x), Kind::Float(y)) => {
            if !(x.to < y.from || y.to < x.from) {
                Some(Type::new(Kind::Float(FloatRange {
                    from: x.from.min(y.from),
                    to: x.to.max(y.to),
                })))
            } else {
                None
            }
        }
        (Kind::Timespan(x), Kind::Timespan(y)) | (Kind::Timestamp(x), Kind::Timestamp(y)) => {
            if !(x.hi() < y.lo() || y.hi() < x.lo()) {
                let r = TimeRange {
                    from: if x.lo() <= y.lo() { x.from } else { y.from },
                    to: if x.hi() >= y.hi() { x.to } else { y.to },
                };
                Some(Type::new(if matches!(a.kind(), Kind::Timespan(_)) {
                    Kind::Timespan(r)
                } else {
                    Kind::Timestamp(r)
                }))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Whether no two of `ranges` (all of one kind) merge (`merge_two`).
fn none_merge(ranges: &[Type]) -> bool {
    let mut sorted: Vec<&Type> = ranges.iter().collect();
    sorted.sort_by(|a, b| match (a.kind(), b.kind()) {
        (Kind::Integer(x), Kind::Integer(y)) => x.lo().cmp(&y.lo()),
        (Kind::Float(x), Kind::Float(y)) => x.from.total_cmp(&y.from),
        (Kind::Timespan(x), Kind::Timespan(y)) | (Kind::Timestamp(x), Kind::Timestamp(y)) => {
            x.lo().cmp(&y.lo())
        }
        _ => std::cmp::Ordering::Equal,
    });
    sorted.windows(2).all(|w| merge_two(w[0], w[1]).is_none())
}

fn merge_numbers(types: Vec<Type>, which: NumKind) -> Vec<Type> {
    if types.len() <= 1 || types.iter().filter(|m| num_kind(m) == Some(which)).count() <= 1 {
        return types;
    }
    let (mut ranges, others): (Vec<Type>, Vec<Type>) =
        types.into_iter().partition(|m| num_kind(m) == Some(which));
    // Where no two ranges merge, the loop below gives them in reverse order; whether
    // any two do is seen between neighbours by lower bound (a range that merges with a
    // later-starting one merges with every range starting between them), without the
    // loop's comparison of every pair.
    if none_merge(&ranges) {
        ranges.reverse();
        ranges.extend(others);
        return ranges;
    }
    let mut result = Vec::new();
    while let Some(x) = ranges.pop() {
        let mut memo = x;
        let mut unmerged = Vec::new();
        for y in ranges.drain(..) {
            match merge_two(&memo, &y) {
                Some(m) => memo = m,
                None => unmerged.push(y),
            }
        }
        result.push(memo);
        ranges = unmerged;
    }
    result.extend(others);
    result
}
