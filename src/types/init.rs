//! `Init[T]` (spec "Init"): the values `T.new` can create a T from. Puppet judges them
//! by the signatures of T's `new` function (`PInitType`): a value is an `Init[T]` when
//! it is a T, when a signature of one parameter takes it, or when another signature
//! takes it as its list of arguments (or, where that signature can be called with one
//! argument, takes it alone). With arguments (`Init[Integer, 16]`), only the
//! signatures that take the value followed by those arguments count. The signatures
//! are generated data (`data/init.toml`, `scripts/puppet/init.rb`).

use super::accepts::accepts;
use super::from_ast::parse_type_expr;
use super::instance::instance_of;
use super::model::{Kind, Type};
use super::resolve::{AliasTable, Resolver};
use super::value::Value;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

#[derive(Deserialize)]
struct Table {
    types: BTreeMap<String, Entry>,
}

#[derive(Deserialize)]
struct Entry {
    signature: Vec<Signature>,
    #[serde(default)]
    aliases: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct Signature {
    params: Vec<String>,
    min: usize,
    max: Option<usize>,
}

/// One signature of a type's `new`, resolved.
struct Resolved {
    /// The parameter types as a Tuple (sized as the signature is).
    tuple: Type,
    /// The type of its first parameter, if it has one.
    first: Option<Type>,
    min: usize,
    max: Option<usize>,
}

/// Reads the table now (`builtin::read_tables`).
pub fn read_table() {
    table();
}

fn table() -> &'static HashMap<String, Option<Vec<Resolved>>> {
    static TABLE: OnceLock<HashMap<String, Option<Vec<Resolved>>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let table: Table = crate::builtin_data::Table::Init.read();
        table
            .types
            .into_iter()
            .map(|(name, entry)| {
                let resolved = resolve(&entry);
                (name, resolved)
            })
            .collect()
    })
}

/// A type's signatures; `None` when a type in them is one pupcheck cannot read.
fn resolve(entry: &Entry) -> Option<Vec<Resolved>> {
    let mut aliases = AliasTable::partial();
    for (name, body) in &entry.aliases {
        aliases.insert(name, parse_type_expr(body).ok()?);
    }
    let mut resolver = Resolver::new(&aliases);
    let mut out = Vec::with_capacity(entry.signature.len());
    for s in &entry.signature {
        let max = s.max.map_or("default".to_string(), |m| m.to_string());
        // `Tuple[0, 0]` is no type expression: the empty tuple is built.
        let tuple = if s.params.is_empty() {
            super::model::t::tuple(
                Vec::new(),
                Some(super::model::IntRange::new(Some(0), Some(0))),
            )
        } else {
            let text = format!("Tuple[{}, {}, {max}]", s.params.join(", "), s.min);
            resolver.resolve(&parse_type_expr(&text).ok()?).ok()?
        };
        let first = match s.params.first() {
            Some(p) => Some(resolver.resolve(&parse_type_expr(p).ok()?).ok()?),
            None => None,
        };
        out.push(Resolved {
            tuple,
            first,
            min: s.min,
            max: s.max,
        });
    }
    Some(out)
}

/// The name Puppet's type table knows `ty` by (`Integer` for `Integer[1, 2]`, `Error`
/// for Error).
fn base_name(ty: &Type) -> String {
    match ty.kind() {
        Kind::Object(o) => o.name.as_deref().unwrap_or("Object").to_string(),
        _ => super::mismatch::simple_name(ty),
    }
}

/// The signatures of one parameter whose parameter takes a value, and the others,
/// which take it as their argument list.
struct Judging {
    single: Vec<&'static Resolved>,
    other: Vec<&'static Resolved>,
}

/// The signatures `Init[ty, args]` judges values by, in Puppet's words when there are
/// none: a type without `new` (or one `Init` refuses), or arguments no signature takes.
/// `Ok(None)`: the signatures are not known to pupcheck.
fn judged_by(ty: &Type, args: &[Value]) -> Result<Option<Judging>, String> {
    let refused = || format!("Creation of new instance of type '{ty}' is not supported");
    if matches!(
        ty.kind(),
        Kind::Init(..) | Kind::Optional(_) | Kind::NotUndef(_)
    ) {
        return Err(refused());
    }
    let Some(entry) = table().get(&base_name(ty)) else {
        return Err(refused());
    };
    let Some(signatures) = entry else {
        return Ok(None);
    };
    if args.is_empty() {
        let (single, other) = signatures
            .iter()
            .partition(|s| s.min == 1 && s.max == Some(1));
        return Ok(Some(Judging { single, other }));
    }
    let given: Vec<Type> = args.iter().map(super::infer::infer_detailed).collect();
    let count = 1 + args.len();
    let taking: Vec<&Resolved> = signatures
        .iter()
        .filter(|s| count >= s.min && s.max.is_none_or(|max| count <= max))
        .filter(|s| {
            s.first.as_ref().is_some_and(|first| {
                let mut types = vec![first.clone()];
                types.extend(given.iter().cloned());
                accepts(&s.tuple, &super::model::t::tuple(types, None))
            })
        })
        .collect();
    if taking.is_empty() {
        let generalized = super::generalize::generalize(ty);
        return Err(format!(
            "The type 'Init[{ty}, {}]' does not represent a valid set of parameters for {}.new()",
            args.iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            base_name(&generalized)
        ));
    }
    Ok(Some(Judging {
        single: taking,
        other: Vec::new(),
    }))
}

/// Puppet's error for an `Init` type it cannot judge values by, if it is one.
pub fn refused(ty: Option<&Type>, args: &[Value]) -> Option<String> {
    judged_by(ty?, args).err()
}

/// Whether `v` is an instance of `Init[ty, args]` (`Init` alone: any rich data).
pub fn instance(v: &Value, ty: Option<&Type>, args: &[Value]) -> bool {
    let Some(ty) = ty else {
        return instance_of(v, &super::model::t::rich_data());
    };
    if instance_of(v, ty) {
        return true;
    }
    let Ok(Some(Judging { single, other })) = judged_by(ty, args) else {
        return false;
    };
    if single
        .iter()
        .any(|s| s.first.as_ref().is_some_and(|first| instance_of(v, first)))
    {
        return true;
    }
    if other.iter().any(|s| instance_of(v, &s.tuple)) {
        return true;
    }
    let alone = Value::array(vec![v.clone()]);
    other.iter().any(|s| s.min == 1) && other.iter().any(|s| instance_of(&alone, &s.tuple))
}

/// Whether `Init[ty, args]` accepts the type `o`, as Puppet's `PInitType` does.
pub fn assignable(ty: Option<&Type>, args: &[Value], o: &Type) -> bool {
    if let Kind::Init(other, _) = o.kind() {
        return match (ty, other) {
            (None, _) => true,
            (Some(t), Some(other)) => accepts(t, other),
            (Some(_), None) => false,
        };
    }
    let Some(ty) = ty else {
        return accepts(&super::model::t::rich_data(), o);
    };
    if accepts(ty, o) {
        return true;
    }
    let Ok(Some(Judging { single, other })) = judged_by(ty, args) else {
        return false;
    };
    single
        .iter()
        .any(|s| s.first.as_ref().is_some_and(|first| accepts(first, o)))
        || other.iter().any(|s| accepts(&s.tuple, o))
        || (other.iter().any(|s| s.min == 1)
            && other
                .iter()
                .any(|s| accepts(&s.tuple, &super::model::t::tuple(vec![o.clone()], None))))
}
