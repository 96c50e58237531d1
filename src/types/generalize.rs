//! `generalize(t)`: the type without the details that only one value has (exact
//! ranges, string values, sizes), as Puppet's `PAnyType#generalize` does. This is
//! what `type(x, 'generalized')` prints (spec 001 "Type inference"; Puppet 7's
//! `generalize` methods, which keep a Tuple's size and a Struct's keys).

use super::model::{t, IntRange, Kind, Type};

pub fn generalize(ty: &Type) -> Type {
    match ty.kind() {
        // Puppet keeps a SemVer type's ranges inside `Type[...]` (a SemVer type is a
        // Pcore object type there): `type(SemVer['1.x'], 'generalized')` is
        // `Type[SemVer['1.x']]`, while `type(Integer[1, 2], 'generalized')` is
        // `Type[Integer]`.
        Kind::Type(Some(i)) if matches!(i.kind(), Kind::SemVer(_)) => ty.clone(),
        // `Error['my/kind', undef]` is an Error.
        Kind::Object(o) if o.parameters.is_some() => Type::new(Kind::Object(std::sync::Arc::new(
            super::model::ObjectType {
                parameters: None,
                ..(**o).clone()
            },
        ))),
        Kind::Type(i) => ty.map_contained(i, generalize, t::type_any, t::type_of),
        Kind::NotUndef(i) => ty.map_contained(i, generalize, t::not_undef_any, t::not_undef),
        Kind::Optional(i) => ty.map_contained(i, generalize, t::optional_any, t::optional),
        Kind::Iterable(i) => ty.map_contained(i, generalize, t::iterable, t::iterable_of),
        Kind::Iterator(i) => ty.map_contained(i, generalize, t::iterator, t::iterator_of),
        Kind::Init(None, _) => t::init(),
        Kind::Init(Some(i), args) => {
            let g = generalize(i);
            if g.ptr_eq(i) {
                ty.clone()
            } else {
                Type::new(Kind::Init(Some(g), args.clone()))
            }
        }
        Kind::Sensitive(i) => {
            let g = generalize(i);
            if g.ptr_eq(i) {
                ty.clone()
            } else {
                Type::new(Kind::Sensitive(g))
            }
        }
        Kind::Enum { values, .. } => {
            if values.is_empty() {
                t::string()
            } else {
                let lens = values.iter().map(|v| v.chars().count() as i64);
                let mn = lens.clone().min().unwrap_or(0);
                let mx = lens.max().unwrap_or(0);
                t::string_sized(IntRange::new(Some(mn), Some(mx)))
            }
        }
        Kind::Integer(_) => t::integer(),
        Kind::Float(_) => t::float(),
        Kind::String(_) => t::string(),
        Kind::Boolean(_) => t::boolean(),
        Kind::Timespan(_) => t::timespan(),
        Kind::Timestamp(_) => t::timestamp(),
        Kind::SemVer(_) => t::semver(),
        Kind::Collection(_) => t::collection(),
        Kind::Array { elem, size } => {
            if matches!(elem.kind(), Kind::Any) {
                return t::array();
            }
            let g = generalize(elem);
            if size.is_none() && g.ptr_eq(elem) {
                ty.clone()
            } else {
                t::array_sized(g, None)
            }
        }
        Kind::Hash { key, value, size } => {
            let is_default = matches!(key.kind(), Kind::Any)
                && matches!(value.kind(), Kind::Any)
                && size.is_none();
            if is_default || size.is_some_and(|s| s.is_empty_range()) {
                return ty.clone();
            }
            t::hash_sized(generalize(key), generalize(value), None)
        }
        Kind::Struct(_) | Kind::Tuple { .. } | Kind::Callable { .. } => {
            ty.map_components(generalize)
        }
        Kind::Variant(ts) => {
            if ts.is_empty() {
                return ty.clone();
            }
            t::variant(ts.iter().map(generalize).collect())
        }
        _ => ty.clone(),
    }
}
