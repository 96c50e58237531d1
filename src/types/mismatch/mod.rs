//! Describing why a value does not match a type, in Puppet's words
//! ("expects an Integer value, got String", "index 1 expects ...", "entry 'a'
//! expects ...", "expects a match for Enum['a', 'b'], got 'c'", "expects size to be at
//! least 2, got 1", "unrecognized key 'b'"), as Puppet 7's `TypeMismatchDescriber`
//! does: the value's detailed type is compared with the expected type, walking into
//! collections, and the findings of Variant members are merged.

use super::accepts::accepts;
use super::display::alias_expanded;
use super::generalize::generalize;
use super::infer::infer_detailed;
use super::model::{t, IntRange, Kind, StringSpec, Type};
use super::normalize::normalize;
use super::value::Value;
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq)]
pub enum PathElem {
    /// A subject such as `assert_type():` or a parameter name already formatted.
    Subject(String),
    Parameter(String),
    Entry(String),
    EntryKey(String),
    Index(usize),
    Variant(usize),
    /// The signature of a function a finding is about (a variant of the call).
    Signature(usize),
    /// The block (lambda) of a call.
    Block,
}

impl PathElem {
    fn text(&self) -> String {
        match self {
            PathElem::Subject(s) => s.clone(),
            PathElem::Parameter(p) => format!("parameter '{p}'"),
            PathElem::Entry(k) => format!("entry '{k}'"),
            PathElem::EntryKey(k) => format!("key of entry '{k}'"),
            PathElem::Index(i) => format!("index {i}"),
            PathElem::Variant(i) => format!("variant {i}"),
            PathElem::Signature(i) => format!("{}.", i + 1),
            PathElem::Block => "block".to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum What {
    Type {
        expected: Type,
        actual: Type,
    },
    Pattern {
        expected: Type,
        actual: Type,
    },
    Size {
        expected: IntRange,
        actual: IntRange,
    },
    MissingKey(String),
    ExtraneousKey(String),
    /// The number of arguments of a call (Puppet's `CountMismatch`, a size mismatch).
    Count {
        expected: IntRange,
        actual: IntRange,
    },
    UnexpectedBlock,
    MissingBlock,
}

/// Puppet's mismatch classes, in the order `merge_descriptions` tries to merge them.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Class {
    /// A size mismatch (a count is one).
    Size,
    Count,
    MissingBlock,
    UnexpectedBlock,
    /// A type mismatch (a pattern mismatch is one).
    Type,
}

/// One finding: where (the path) and what.
#[derive(Debug, Clone)]
pub struct Mismatch {
    path: Vec<PathElem>,
    what: What,
}

impl PartialEq for Mismatch {
    fn eq(&self, o: &Mismatch) -> bool {
        self.canonical_path() == o.canonical_path() && self.what == o.what
    }
}

/// `normalize(actual)`, remembered for the last type asked on this thread: a value
/// judged against each member of a large `Variant` is one actual type met thousands of
/// times (a 3,000-key hash against 6,000 members was normalised 6,000 times: 1.3 s and
/// 360 MB).
fn normalized_actual(actual: &Type) -> Type {
    thread_local! {
        static LAST: std::cell::RefCell<Option<(Type, Type)>> = const { std::cell::RefCell::new(None) };
    }
    LAST.with(|last| {
        if let Some((asked, normal)) = &*last.borrow() {
            if asked.ptr_eq(actual) {
                return normal.clone();
            }
        }
        let normal = normalize(actual);
        *last.borrow_mut() = Some((actual.clone(), normal.clone()));
        normal
    })
}

impl Mismatch {
    fn new_type(path: &[PathElem], expected: &Type, actual: &Type, pattern: bool) -> Mismatch {
        let expected = normalize(expected);
        let actual = normalized_actual(actual);
        Mismatch {
            path: path.to_vec(),
            what: if pattern {
                What::Pattern { expected, actual }
            } else {
                What::Type { expected, actual }
            },
        }
    }

    fn canonical_path(&self) -> Vec<&PathElem> {
        self.path
            .iter()
            .filter(|e| !matches!(e, PathElem::Variant(_) | PathElem::Signature(_)))
            .collect()
    }

    /// Whether this finding is of Puppet's class `class` (or a subclass).
    fn is_a(&self, class: Class) -> bool {
        matches!(
            (class, &self.what),
            (Class::Size, What::Size { .. } | What::Count { .. })
                | (Class::Count, What::Count { .. })
                | (Class::MissingBlock, What::MissingBlock)
                | (Class::UnexpectedBlock, What::UnexpectedBlock)
                | (Class::Type, What::Type { .. } | What::Pattern { .. })
        )
    }

    /// The message, starting with the path (`index 1 expects ...`).
    pub fn format(&self) -> String {
        let position = self
            .path
            .iter()
            .map(PathElem::text)
            .collect::<Vec<_>>()
            .join(" ");
        let position = if position.is_empty() {
            String::new()
        } else {
            format!(" {position}")
        };
        let msg = match &self.what {
            What::MissingKey(k) => format!("{position} expects a value for key '{k}'"),
            What::ExtraneousKey(k) => format!("{position} unrecognized key '{k}'"),
            What::Size { expected, actual } => format!(
                "{position} expects size to be {}, got {}",
                range_to_s(expected, "0"),
                range_to_s(actual, "0")
            ),
            What::Count { expected, actual } => {
                let min = expected.from.unwrap_or(0);
                let max = expected.to;
                let one =
                    (min == 1 && matches!(max, Some(1) | None)) || (min == 0 && max == Some(1));
                format!(
                    "{position} expects {} argument{}, got {}",
                    range_to_s(expected, "no"),
                    if one { "" } else { "s" },
                    range_to_s(actual, "none")
                )
            }
            What::UnexpectedBlock => format!("{position} does not expect a block"),
            What::MissingBlock => format!("{position} expects a block"),
            What::Pattern { expected, actual } => {
                let (e, pfx) = match expected.kind() {
                    Kind::Optional(Some(i)) => (i.clone(), "an undef value or "),
                    _ => (expected.clone(), ""),
                };
                let a = match actual.kind() {
                    Kind::String(StringSpec::Value(v)) => format!("'{v}'"),
                    _ => short_name(actual),
                };
                format!(
                    "{position} expects {pfx}a match for {}, got {a}",
                    alias_expanded(&e)
                )
            }
            What::Type { expected, actual } => type_message(&position, expected, actual),
        };
        msg.trim().to_string()
    }
}

/// Puppet's words for a range of sizes or counts; `zero` names the range `[0, 0]`.
fn range_to_s(r: &IntRange, zero: &str) -> String {
    let min = r.from.unwrap_or(0).max(0) as i128;
    let max = r.to.map(i128::from).unwrap_or(i128::MAX);
    if min == max && min == 0 {
        zero.to_string()
    } else if min == max {
        min.to_string()
    } else if min == 0 {
        if max == i128::MAX {
            "unlimited".into()
        } else {
            format!("at most {max}")
        }
    } else if max == i128::MAX {
        format!("at least {min}")
    } else {
        format!("between {min} and {max}")
    }
}

/// Puppet's `simple_name` (the class name without `P` and `Type`).
pub(crate) fn simple_name(ty: &Type) -> String {
    match ty.kind() {
        Kind::Any => "Any",
        Kind::Unit => "Unit",
        Kind::Undef => "Undef",
        Kind::Default => "Default",
        Kind::Scalar => "Scalar",
        Kind::ScalarData => "ScalarData",
        Kind::Numeric => "Numeric",
        Kind::Integer(_) => "Integer",
        Kind::Float(_) => "Float",
        Kind::String(_) => "String",
        Kind::Enum { .. } => "Enum",
        Kind::Pattern(_) => "Pattern",
        Kind::Boolean(_) => "Boolean",
        Kind::Regexp(_) => "Regexp",
        Kind::SemVer(_) => "SemVer",
        Kind::SemVerRange => "SemVerRange",
        Kind::Timespan(_) => "Timespan",
        Kind::Timestamp(_) => "Timestamp",
        Kind::Collection(_) => "Collection",
        Kind::Array { .. } => "Array",
        Kind::Hash { .. } => "Hash",
        Kind::Struct(_) => "Struct",
        Kind::Tuple { .. } => "Tuple",
        Kind::Variant(_) => "Variant",
        Kind::Optional(_) => "Optional",
        Kind::NotUndef(_) => "NotUndef",
        Kind::Iterable(_) => "Iterable",
        Kind::Iterator(_) => "Iterator",
        Kind::CatalogEntry => "CatalogEntry",
        Kind::Resource { .. } => "Resource",
        Kind::Class(_) => "Class",
        Kind::Type(_) => "Type",
        Kind::Callable { .. } => "Callable",
        Kind::Sensitive(_) => "Sensitive",
        Kind::Runtime { .. } => "Runtime",
        Kind::Binary => "Binary",
        Kind::Uri(_) => "URI",
        Kind::Init(..) => "Init",
        Kind::Object(_) => "Object",
        Kind::TypeSet => "TypeSet",
        Kind::Alias(a) => return a.name.clone(),
        Kind::Reference(_) => "TypeReference",
    }
    .to_string()
}

fn short_name(ty: &Type) -> String {
    let inner = match ty.kind() {
        Kind::Type(i)
        | Kind::NotUndef(i)
        | Kind::Optional(i)
        | Kind::Iterable(i)
        | Kind::Iterator(i)
        | Kind::Init(i, _) => i.clone(),
        Kind::Sensitive(i) => Some(i.clone()),
        _ => None,
    };
    match inner {
        Some(i) if !matches!(i.kind(), Kind::Any) => {
            format!("{}[{}]", simple_name(ty), simple_name(&i))
        }
        _ => simple_name(ty),
    }
}

fn a_an(s: &str) -> String {
    let first = s.chars().next().unwrap_or('x').to_ascii_lowercase();
    if "aeiou".contains(first) {
        format!("an {s}")
    } else {
        format!("a {s}")
    }
}

fn resolved(ty: &Type) -> Type {
    match ty.kind() {
        Kind::Alias(a) => resolved(&a.resolved()),
        _ => ty.clone(),
    }
}

/// The unparameterised type of the same kind (`e.class::DEFAULT`).
fn default_of(ty: &Type) -> Type {
    match ty.kind() {
        Kind::Integer(_) => t::integer(),
        Kind::Float(_) => t::float(),
        Kind::String(_) => t::string(),
        Kind::Enum { .. } => t::enum_any(),
        Kind::Pattern(_) => t::pattern_any(),
        Kind::Boolean(_) => t::boolean(),
        Kind::Regexp(_) => t::regexp(),
        Kind::SemVer(_) => t::semver(),
        Kind::Timespan(_) => t::timespan(),
        Kind::Timestamp(_) => t::timestamp(),
        Kind::Collection(_) => t::collection(),
        Kind::Array { .. } => t::array(),
        Kind::Hash { .. } => t::hash(),
        Kind::Struct(_) => t::structure(),
        Kind::Tuple { .. } => t::tuple_any(),
        Kind::Variant(_) => t::variant_empty(),
        Kind::Optional(_) => t::optional_any(),
        Kind::NotUndef(_) => t::not_undef_any(),
        Kind::Iterable(_) => t::iterable(),
        Kind::Iterator(_) => t::iterator(),
        Kind::Resource { .. } => t::resource(),
        Kind::Class(_) => t::class(),
        Kind::Type(_) => t::type_any(),
        Kind::Callable { .. } => t::callable(),
        Kind::Sensitive(_) => t::sensitive(),
        Kind::Runtime { .. } => t::runtime(),
        Kind::Uri(_) => t::uri(),
        Kind::Init(..) => t::init(),
        _ => ty.clone(),
    }
}

fn same_class(e: &Type, a: &Type) -> bool {
    std::mem::discriminant(e.kind()) == std::mem::discriminant(a.kind())
}

fn always_fully_detailed(es: &[Type], a: &Type) -> bool {
    es.iter().any(|e| {
        same_class(e, a)
            || matches!(e.kind(), Kind::Alias(_))
            || matches!(a.kind(), Kind::Alias(_))
            || (matches!(e.kind(), Kind::Struct(_)) && matches!(a.kind(), Kind::Hash { .. }))
            || (matches!(e.kind(), Kind::Tuple { .. }) && matches!(a.kind(), Kind::Array { .. }))
    })
}

fn report_detailed(es: &[Type], a: &Type) -> bool {
    always_fully_detailed(es, a) || es.iter().any(|e| accepts(&default_of(&resolved(e)), a))
}

fn detailed_actual(es: &[Type], a: &Type) -> String {
    let es: Vec<Type> = es.iter().map(resolved).collect();
    if always_fully_detailed(&es, a) || es.iter().any(|e| accepts(e, &generalize(a))) {
        alias_expanded(a)
    } else {
        simple_name(a)
    }
}

fn type_message(position: &str, expected: &Type, actual: &Type) -> String {
    let (e, optional) = match expected.kind() {
        Kind::Optional(Some(i)) => (i.clone(), true),
        _ => (expected.clone(), false),
    };
    let (names, a, multi) = match e.kind() {
        Kind::Variant(ts) => {
            let es: Vec<Type> = ts.to_vec();
            let (mut names, a): (Vec<String>, String) = if report_detailed(&es, actual) {
                (
                    es.iter().map(alias_expanded).collect(),
                    detailed_actual(&es, actual),
                )
            } else {
                let mut n: Vec<String> = Vec::new();
                for x in &es {
                    let s = short_name(x);
                    if !n.contains(&s) {
                        n.push(s)
                    }
                }
                (n, short_name(actual))
            };
            if optional {
                names.insert(0, "Undef".into());
            }
            let multi = names.len() > 1;
            (names, a, multi)
        }
        _ => {
            let es = [e.clone()];
            let (n, a) = if report_detailed(&es, actual) {
                (alias_expanded(&e), detailed_actual(&es, actual))
            } else {
                (short_name(&e), short_name(actual))
            };
            if optional {
                (vec!["Undef".to_string(), n], a, true)
            } else {
                (vec![n], a, false)
            }
        }
    };
    let e = match names.len() {
        1 => names[0].clone(),
        2 => format!("{} or {}", names[0], names[1]),
        n => format!("{}, or {}", names[..n - 1].join(", "), names[n - 1]),
    };
    if multi {
        format!("{position} expects a value of type {e}, got {a}")
    } else {
        format!("{position} expects {} value, got {a}", a_an(&e))
    }
}

/// Puppet's message for the mismatches of a resource or class (`subject`, such as
/// `Class[Ntp]`): one on the same line, several each on a line of its own.
pub fn of_subject(subject: &str, parts: &[String]) -> String {
    match parts {
        [one] => format!("{subject}: {one}"),
        many => format!("{subject}:\n  {}", many.join("\n  ")),
    }
}

/// Puppet's describer naming each part of a mismatch (`assert_type():`, `value
/// returned from f has wrong type,`): one part on its line, several each on a line.
pub fn each_named(name: &str, parts: &[String]) -> String {
    match parts {
        [one] => format!("{name} {one}"),
        many => many
            .iter()
            .map(|part| format!(" {name} {part}"))
            .collect::<Vec<_>>()
            .join("\n "),
    }
}

/// Describes why `value` is not an instance of `expected`: one message per finding
/// (empty when it is an instance). `path` is the prefix, e.g. a parameter.
pub fn describe_value(expected: &Type, value: &Value, path: &[PathElem]) -> Vec<String> {
    describe(expected, &infer_detailed(value), path)
        .iter()
        .map(Mismatch::format)
        .collect()
}

/// [`describe_value`], each message with the path of the part it is about (the
/// entries and indexes leading to it, after `path`), to say where in the value it is.
pub fn describe_value_parts(
    expected: &Type,
    value: &Value,
    path: &[PathElem],
) -> Vec<(Vec<PathElem>, String)> {
    describe(expected, &infer_detailed(value), path)
        .iter()
        .map(|m| (m.path.clone(), m.format()))
        .collect()
}

/// Describes why `actual` is not assignable to `expected`.
pub fn describe_types(expected: &Type, actual: &Type, path: &[PathElem]) -> Vec<String> {
    describe(expected, actual, path)
        .iter()
        .map(Mismatch::format)
        .collect()
}

/// Describes why no value of the type `actual` is an instance of `expected`, in the
/// words Puppet uses for the value itself: a value has a type of its own (`String`,
/// never `Enum` or `Pattern`), so an actual type that only lists strings is named as
/// the string it may be.
pub fn describe_inferred(expected: &Type, actual: &Type, path: &[PathElem]) -> Vec<String> {
    describe_types(
        expected,
        &named_as_value(expected, &as_value_type(actual)),
        path,
    )
}

/// An array or hash that `expected` refuses whatever it holds, named as Puppet names
/// such a value: a non-empty array is a `Tuple` and a non-empty hash with string keys
/// a `Struct` to Puppet's inference ("expects an Integer value, got Tuple"). Only the
/// empty one is an `Array` (`Hash`), which a type that may hold elements rarely means.
fn named_as_value(expected: &Type, actual: &Type) -> Type {
    let any_size = IntRange {
        from: Some(0),
        to: None,
    };
    match actual.kind() {
        Kind::Array { elem, size }
            if size.is_none_or(|s| s.to != Some(0))
                && super::disjoint::disjoint(expected, &t::array_of(t::any())) =>
        {
            t::tuple(vec![elem.clone()], Some(size.unwrap_or(any_size)))
        }
        // Only its name is printed: the expected type takes no hash at all.
        Kind::Hash { key, size, .. }
            if size.is_none_or(|s| s.to != Some(0))
                && matches!(
                    key.kind(),
                    Kind::String(_) | Kind::Enum { .. } | Kind::Pattern(_)
                )
                && super::disjoint::disjoint(expected, &t::hash_of(t::any(), t::any())) =>
        {
            t::structure_of(Vec::new())
        }
        _ => actual.clone(),
    }
}

/// The type Puppet infers for any value of `ty`, where that is the same for all of
/// them: strings listed by an `Enum` or matched by a `Pattern` are `String`s (the
/// single string of a one-value `Enum` is that string).
fn as_value_type(ty: &Type) -> Type {
    match ty.kind() {
        Kind::Enum { values, .. } if values.len() == 1 => t::string_value(&values[0]),
        Kind::Enum { .. } | Kind::Pattern(_) => t::string(),
        Kind::Array { elem, size } => t::array_sized(as_value_type(elem), *size),
        Kind::Optional(Some(inner)) => t::optional(as_value_type(inner)),
        Kind::Variant(members) => t::variant(members.iter().map(as_value_type).collect()),
        Kind::Tuple { .. } | Kind::Struct(_) => ty.map_components(as_value_type),
        _ => ty.clone(),
    }
}

fn describe(expected: &Type, actual: &Type, path: &[PathElem]) -> Vec<Mismatch> {
    internal(&normalize(expected), expected, actual, path, 0)
}

fn with(path: &[PathElem], e: PathElem) -> Vec<PathElem> {
    let mut p = path.to_vec();
    p.push(e);
    p
}

fn internal(
    expected: &Type,
    original: &Type,
    actual: &Type,
    path: &[PathElem],
    depth: u32,
) -> Vec<Mismatch> {
    if depth > 100 {
        return vec![Mismatch::new_type(path, original, actual, false)];
    }
    let d = depth + 1;
    match expected.kind() {
        Kind::Variant(ts) => {
            let mut types: Vec<Type> = ts.to_vec();
            if matches!(original.kind(), Kind::Optional(_)) {
                types.insert(0, t::undef());
            }
            let mut variant_descriptions = Vec::new();
            for (i, vt) in types.iter().enumerate() {
                let dd = internal(
                    &normalize(vt),
                    vt,
                    actual,
                    &with(path, PathElem::Variant(i)),
                    d,
                );
                if dd.is_empty() {
                    return vec![];
                }
                variant_descriptions.push(dd);
            }
            // An alias whose members' mismatches merge into one is named as a whole:
            // whether they do is asked without building the merged type (which costs
            // the cube of the members' count: a Variant of thousands of ranges).
            if matches!(original.kind(), Kind::Alias(_))
                && merges_to_one(Class::Size, &variant_descriptions)
            {
                return vec![Mismatch::new_type(path, original, actual, false)];
            }
            merge_descriptions(path.len(), Class::Size, variant_descriptions)
        }
        Kind::Optional(inner) => {
            let Some(inner) = inner else { return vec![] };
            if matches!(actual.kind(), Kind::Undef) {
                return vec![];
            }
            let orig = if matches!(original.kind(), Kind::Alias(_)) {
                original
            } else {
                expected
            };
            internal(inner, orig, actual, path, d)
        }
        Kind::Enum { .. } | Kind::Pattern(_) => {
            vec![Mismatch::new_type(path, original, actual, true)]
        }
        Kind::Alias(a) => internal(&normalize(&a.resolved()), expected, actual, path, d),
        Kind::Array { elem, size } => match actual.kind() {
            Kind::Tuple { types, size: asize } => {
                let es = size.unwrap_or(IntRange::DEFAULT_SIZE);
                let as_ = asize.unwrap_or(IntRange::exact(types.len() as i64));
                if es.covers(&as_) {
                    let mut out = Vec::new();
                    for (i, ty) in types.iter().enumerate() {
                        if !accepts(elem, ty) {
                            out.extend(describe_at(elem, ty, &with(path, PathElem::Index(i)), d));
                        }
                    }
                    out
                } else {
                    vec![size_mismatch(path, es, as_)]
                }
            }
            Kind::Array {
                elem: ae,
                size: asize,
            } => {
                let as_ = asize.unwrap_or(IntRange::DEFAULT_SIZE);
                if size.is_none_or(|s| s.covers(&as_)) {
                    vec![Mismatch::new_type(
                        path,
                        original,
                        &t::array_of(ae.clone()),
                        false,
                    )]
                } else {
                    vec![size_mismatch(path, size.expect("size"), as_)]
                }
            }
            _ => vec![Mismatch::new_type(path, original, actual, false)],
        },
        Kind::Hash { key, value, size } => match actual.kind() {
            Kind::Struct(elems) => {
                let es = size.unwrap_or(IntRange::DEFAULT_SIZE);
                let required = elems
                    .iter()
                    .filter(|e| !accepts(&e.key, &t::undef()))
                    .count() as i64;
                let as_ = IntRange::new(Some(required), Some(elems.len() as i64));
                if es.covers(&as_) {
                    let mut out = Vec::new();
                    for e in elems {
                        if !accepts(key, &e.key) {
                            out.extend(describe_at(
                                key,
                                &e.key,
                                &with(path, PathElem::EntryKey(e.name().into())),
                                d,
                            ));
                        }
                        if !accepts(value, &e.value) {
                            out.extend(describe_at(
                                value,
                                &e.value,
                                &with(path, PathElem::Entry(e.name().into())),
                                d,
                            ));
                        }
                    }
                    out
                } else {
                    vec![size_mismatch(path, es, as_)]
                }
            }
            Kind::Hash {
                key: ak,
                value: av,
                size: asize,
            } => {
                let as_ = asize.unwrap_or(IntRange::DEFAULT_SIZE);
                if size.is_none_or(|s| s.covers(&as_)) {
                    vec![Mismatch::new_type(
                        path,
                        original,
                        &t::hash_of(ak.clone(), av.clone()),
                        false,
                    )]
                } else {
                    vec![size_mismatch(path, size.expect("size"), as_)]
                }
            }
            _ => vec![Mismatch::new_type(path, original, actual, false)],
        },
        Kind::Struct(elems) => match actual.kind() {
            Kind::Struct(aelems) => {
                // Each expected key takes the first actual element of its name not
                // taken yet (found by name: the keys may come in any order).
                let mut by_name: HashMap<&str, std::collections::VecDeque<usize>> = HashMap::new();
                for (i, e2) in aelems.iter().enumerate() {
                    by_name.entry(e2.name()).or_default().push_back(i);
                }
                let mut taken = vec![false; aelems.len()];
                let mut out = Vec::new();
                for e1 in elems {
                    let k = e1.name();
                    let found = by_name.get_mut(k).and_then(|q| q.pop_front()).map(|i| {
                        taken[i] = true;
                        &aelems[i]
                    });
                    match found {
                        None => {
                            if !accepts(&e1.key, &t::undef()) {
                                out.push(Mismatch {
                                    path: path.to_vec(),
                                    what: What::MissingKey(k.to_string()),
                                })
                            }
                        }
                        Some(e2) => {
                            if !accepts(&e1.key, &e2.key) {
                                out.extend(describe_at(
                                    &e1.key,
                                    &e2.key,
                                    &with(path, PathElem::EntryKey(k.into())),
                                    d,
                                ));
                            }
                            if !accepts(&e1.value, &e2.value) {
                                out.extend(describe_at(
                                    &e1.value,
                                    &e2.value,
                                    &with(path, PathElem::Entry(k.into())),
                                    d,
                                ));
                            }
                        }
                    }
                }
                let rest = aelems.iter().zip(&taken).filter(|(_, t)| !**t);
                for (e2, _) in rest {
                    out.push(Mismatch {
                        path: path.to_vec(),
                        what: What::ExtraneousKey(e2.name().to_string()),
                    })
                }
                out
            }
            Kind::Hash {
                key: ak,
                value: av,
                size: asize,
            } => {
                let as_ = asize.unwrap_or(IntRange::DEFAULT_SIZE);
                let required = elems
                    .iter()
                    .filter(|e| !accepts(&e.key, &t::undef()))
                    .count() as i64;
                let es = IntRange::new(Some(required), Some(elems.len() as i64));
                if es.covers(&as_) {
                    vec![Mismatch::new_type(
                        path,
                        original,
                        &t::hash_of(ak.clone(), av.clone()),
                        false,
                    )]
                } else {
                    vec![size_mismatch(path, es, as_)]
                }
            }
            _ => vec![Mismatch::new_type(path, original, actual, false)],
        },
        Kind::Tuple { types, size } => {
            if expected == actual
                || (types.is_empty() && matches!(actual.kind(), Kind::Array { .. }))
            {
                return vec![];
            }
            let es = super::accepts::tuple_size(types, size);
            match actual.kind() {
                Kind::Tuple {
                    types: at,
                    size: asize,
                } => {
                    let as_ = super::accepts::tuple_size(at, asize);
                    if es.covers(&as_) {
                        let mut out = Vec::new();
                        if !types.is_empty() {
                            for (i, aty) in at.iter().enumerate() {
                                let adx = i.min(types.len() - 1);
                                out.extend(describe_at(
                                    &types[adx],
                                    aty,
                                    &with(path, PathElem::Index(adx)),
                                    d,
                                ));
                            }
                        }
                        out
                    } else {
                        vec![size_mismatch(path, es, as_)]
                    }
                }
                Kind::Array { elem, size: asize } => {
                    let as_ = asize.unwrap_or(IntRange::DEFAULT_SIZE);
                    if es.covers(&as_) {
                        let mut out = Vec::new();
                        for (i, ety) in types.iter().enumerate() {
                            out.extend(describe_at(ety, elem, &with(path, PathElem::Index(i)), d));
                        }
                        out
                    } else {
                        vec![size_mismatch(path, es, as_)]
                    }
                }
                _ => vec![Mismatch::new_type(path, original, actual, false)],
            }
        }
        _ => {
            if accepts(expected, actual) {
                vec![]
            } else {
                vec![Mismatch::new_type(path, original, actual, false)]
            }
        }
    }
}

fn describe_at(expected: &Type, actual: &Type, path: &[PathElem], d: u32) -> Vec<Mismatch> {
    internal(&normalize(expected), expected, actual, path, d)
}

fn size_mismatch(path: &[PathElem], expected: IntRange, actual: IntRange) -> Mismatch {
    Mismatch {
        path: path.to_vec(),
        what: What::Size { expected, actual },
    }
}

impl What {
    /// The expected and actual range of a size (or count) mismatch.
    fn sizes(&self) -> Option<(&IntRange, &IntRange)> {
        match self {
            What::Size { expected, actual } | What::Count { expected, actual } => {
                Some((expected, actual))
            }
            _ => None,
        }
    }
}

fn merge(a: &Mismatch, b: &Mismatch) -> Mismatch {
    let what = match (&a.what, &b.what) {
        // The least restrictive range, in the first one's class.
        (first, second) if first.sizes().is_some() && second.sizes().is_some() => {
            let ((e1, actual), (e2, _)) = (
                first.sizes().expect("a size"),
                second.sizes().expect("a size"),
            );
            let from = e1.from.unwrap_or(0).min(e2.from.unwrap_or(0));
            let to = match (e1.to, e2.to) {
                (Some(x), Some(y)) => Some(x.max(y)),
                _ => None,
            };
            let expected = IntRange::new(Some(from), to);
            let actual = *actual;
            match first {
                What::Count { .. } => What::Count { expected, actual },
                _ => What::Size { expected, actual },
            }
        }
        (
            What::Type {
                expected: e1,
                actual,
            }
            | What::Pattern {
                expected: e1,
                actual,
            },
            What::Type { expected: e2, .. } | What::Pattern { expected: e2, .. },
        ) => {
            let mut members = Vec::new();
            for m in [e1, e2] {
                match m.kind() {
                    Kind::Variant(ts) => members.extend(ts.iter().cloned()),
                    _ => members.push(m.clone()),
                }
            }
            let expected = normalize(&t::variant(members));
            if matches!(a.what, What::Pattern { .. }) {
                What::Pattern {
                    expected,
                    actual: actual.clone(),
                }
            } else {
                What::Type {
                    expected,
                    actual: actual.clone(),
                }
            }
        }
        _ => a.what.clone(),
    };
    Mismatch {
        path: a.path.clone(),
        what,
    }
}

/// Whether `merge_descriptions` gives one finding for these: a class of findings has
/// one from every variant, all at one place (the fold that merges them succeeds), or
/// every finding is the same.
fn merges_to_one(size_class: Class, variant_descriptions: &[Vec<Mismatch>]) -> bool {
    let all: Vec<&Mismatch> = variant_descriptions.iter().flatten().collect();
    for class in [
        size_class,
        Class::MissingBlock,
        Class::UnexpectedBlock,
        Class::Type,
    ] {
        let ms: Vec<&&Mismatch> = all.iter().filter(|m| m.is_a(class)).collect();
        if !ms.is_empty() && ms.len() == variant_descriptions.len() {
            let first = ms[0].canonical_path();
            if ms[1..].iter().all(|m| m.canonical_path() == first) {
                return true;
            }
        }
    }
    all.split_first()
        .is_some_and(|(first, rest)| rest.iter().all(|m| m == first))
}

/// Puppet's `merge_descriptions`: when every variant (or signature) failed with a
/// finding of one class at one place, those findings are one (merged); the path element
/// at `varying` (the variant's) is then dropped.
fn merge_descriptions(
    varying: usize,
    size_class: Class,
    variant_descriptions: Vec<Vec<Mismatch>>,
) -> Vec<Mismatch> {
    let mut descriptions: Vec<Mismatch> = variant_descriptions.iter().flatten().cloned().collect();
    for class in [
        size_class,
        Class::MissingBlock,
        Class::UnexpectedBlock,
        Class::Type,
    ] {
        let ms: Vec<&Mismatch> = descriptions.iter().filter(|m| m.is_a(class)).collect();
        if !ms.is_empty() && ms.len() == variant_descriptions.len() {
            let mut acc: Option<Mismatch> = Some(ms[0].clone());
            for cur in &ms[1..] {
                let prev = acc.take().expect("acc");
                if prev.canonical_path() != cur.canonical_path() {
                    acc = None;
                    break;
                }
                acc = Some(merge(&prev, cur));
            }
            if let Some(g) = acc {
                descriptions = vec![g];
                break;
            }
        }
    }
    let mut uniq: Vec<Mismatch> = Vec::new();
    for m in descriptions {
        if !uniq.contains(&m) {
            uniq.push(m)
        }
    }
    if uniq.len() == 1 {
        let mut m = uniq.pop().expect("one");
        if varying < m.path.len() {
            m.path.remove(varying);
        }
        vec![m]
    } else {
        uniq
    }
}

mod signatures;
pub use signatures::{
    certain_mismatch, describe_signatures, Actual, GivenBlock, Signature, SignatureBlock,
};
