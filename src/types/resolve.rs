//! Turning a [`TypeExpr`] into a [`Type`] (spec 001 "Type expressions" and each
//! type's parameters), as Puppet's evaluator does for `T[...]` (its
//! `AccessOperator`): the expression is first evaluated to a literal [`Value`]
//! (types, integers, strings, `default`, arrays, hashes), then each `T[...]` is
//! checked and built. Errors carry the span of the offending parameter and use
//! Puppet's wording.

use foldhash::{HashMap, HashMapExt};
use std::sync::Arc;

use indexmap::IndexMap;

use super::accepts::accepts;
use super::expr::{TypeExpr, TypeExprKind};
use super::model::{
    t, Alias, FloatRange, IntRange, Kind, Regex, RuntimeName, StructElem, TimeRange, Type,
};
use super::normalize::normalize;
use super::semver_range::VersionRange;
use super::time::{
    parse_timespan, parse_timestamp, NANOS_PER_SEC, TIMESPAN_FORMATS, TIMESTAMP_FORMATS,
};
use super::value::Value;

/// An invalid type expression.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeError {
    pub message: String,
    pub span: (usize, usize),
    /// The expression names a type pupcheck does not know (an alias or resource type
    /// of code it has not read): not an error in the code.
    pub unknown_name: bool,
}

type R<T> = Result<T, TypeError>;

fn err<T>(span: (usize, usize), message: impl Into<String>) -> R<T> {
    Err(TypeError {
        message: message.into(),
        span,
        unknown_name: false,
    })
}

/// Where alias definitions come from: a prelude (`type X = ...`) now, the
/// environment index later.
pub trait AliasSource {
    /// The body of alias `name` (as written: `Foo::Bar`), if there is one.
    fn alias_body(&self, name: &str) -> Option<TypeExpr>;

    /// Whether every type alias there is is here: then another capitalised name is a
    /// resource type (`File`), as Puppet reads it. When not (a file checked without
    /// the modules it uses), such a name is an unknown type
    /// ([`TypeError::unknown_name`]).
    fn knows_every_alias(&self) -> bool {
        true
    }

    /// Whether `name` is surely a resource type, whatever aliases the source has not
    /// seen: one of Puppet's own (`Package`), where a module's aliases are namespaced.
    fn is_surely_resource_type(&self, _name: &str) -> bool {
        false
    }
}

/// A table of aliases, by name.
#[derive(Debug, Default, Clone)]
pub struct AliasTable {
    pub aliases: IndexMap<String, TypeExpr>,
    /// Other aliases may exist elsewhere ([`AliasSource::knows_every_alias`]).
    pub partial: bool,
}

impl AliasTable {
    pub fn new() -> AliasTable {
        AliasTable::default()
    }
    /// A table that holds some of the aliases there are (those of one file).
    pub fn partial() -> AliasTable {
        AliasTable {
            partial: true,
            ..AliasTable::default()
        }
    }
    pub fn insert(&mut self, name: &str, body: TypeExpr) {
        self.aliases.insert(name.to_lowercase(), body);
    }
}

impl AliasSource for AliasTable {
    fn alias_body(&self, name: &str) -> Option<TypeExpr> {
        self.aliases.get(&name.to_lowercase()).cloned()
    }
    fn knows_every_alias(&self) -> bool {
        !self.partial
    }
}

/// Aliases of a narrower scope before those around it: a Ruby function's
/// `local_types` before its environment's.
pub struct Layered<'a> {
    pub local: AliasTable,
    pub outer: &'a dyn AliasSource,
}

impl AliasSource for Layered<'_> {
    fn alias_body(&self, name: &str) -> Option<TypeExpr> {
        self.local
            .alias_body(name)
            .or_else(|| self.outer.alias_body(name))
    }
    fn knows_every_alias(&self) -> bool {
        self.outer.knows_every_alias()
    }
    fn is_surely_resource_type(&self, name: &str) -> bool {
        self.outer.is_surely_resource_type(name)
    }
}

/// No aliases at all.
pub struct NoAliases;

impl AliasSource for NoAliases {
    fn alias_body(&self, _: &str) -> Option<TypeExpr> {
        None
    }
}

/// Resolves type expressions, creating each alias once (so recursive aliases share
/// one node and every use of an alias is the same type).
pub struct Resolver<'a> {
    source: &'a dyn AliasSource,
    aliases: HashMap<String, Arc<Alias>>,
}

/// Resolves a type expression with the given aliases.
pub fn resolve_type(e: &TypeExpr, aliases: &dyn AliasSource) -> R<Type> {
    Resolver::new(aliases).resolve(e)
}

/// Evaluates a literal expression (a value such as `[1, 'a', Integer]`).
pub fn resolve_value(e: &TypeExpr, aliases: &dyn AliasSource) -> R<Value> {
    Resolver::new(aliases).eval(e)
}

/// Ruby's class name of a value, as Puppet's messages show it.
fn ruby_class(v: &Value) -> String {
    super::labels::ruby_class_name(v)
}

/// Puppet's name of a value's generalised type, used in "Cannot use X where ...".
fn key_type_name(v: &Value) -> String {
    match v {
        Value::Undef => "Undef".into(),
        Value::Default => "Default".into(),
        _ => super::infer::infer_generalized(v).to_string(),
    }
}

fn a_an(word: &str) -> String {
    super::labels::a_an(word)
}

/// Puppet's access operator refusing the number of a type's parameters: `String`
/// has a message of its own; the types it names by the type itself get an article
/// ("A Regexp-Type[]"), the others are named by a fixed string ("Hash-Type[]"); and
/// the types it checks with `assert_keys` always state a minimum of 1.
fn arity(base: &str, min: usize, max: Option<usize>, got: usize) -> String {
    if base == "String" {
        return format!("String supports [] with one or two arguments. Got {got}");
    }
    let named_by_type = |min| (super::labels::a_an_uc(&format!("{base}-Type")), min);
    let (label, min) = match base {
        "Regexp" | "Timestamp" | "Timespan" | "Callable" => named_by_type(min),
        "Boolean" | "Enum" | "Variant" | "SemVer" | "Pattern" | "Runtime" | "Tuple" | "Struct" => {
            named_by_type(1)
        }
        _ => (format!("{base}-Type"), min),
    };
    match max {
        None => format!("{label}[] accepts {min} or more arguments. Got {got}"),
        Some(m) if m != min => format!("{label}[] accepts {min} to {m} arguments. Got {got}"),
        _ => format!(
            "{label}[] accepts {min} argument{}. Got {got}",
            if min == 1 { "" } else { "s" }
        ),
    }
}

/// A resource or class type given no parameters: Puppet names it as it prints it
/// (`File`, `Class`), not as a type label.
fn untitled_arity(name: &str) -> String {
    format!("{name}[] accepts 1 or more arguments. Got 0")
}

fn specialization(base: &str, v: &Value, expected: &str) -> String {
    format!(
        "Error creating type specialization of {}, Cannot use {} where {expected} is expected",
        a_an(&format!("{base}-Type")),
        key_type_name(v)
    )
}

/// An argument value with the span it came from.
#[derive(Clone)]
struct Arg {
    v: Value,
    span: (usize, usize),
}

fn is_range_param(v: &Value) -> bool {
    matches!(v, Value::Integer(_) | Value::Default)
        || matches!(v, Value::String(s) if &**s == "default")
}

fn range_bound(v: &Value) -> Option<i64> {
    match v {
        Value::Integer(i) => Some(*i),
        _ => None,
    }
}

fn int_range(from: &Value, to: Option<&Value>, span: (usize, usize)) -> R<IntRange> {
    let f = range_bound(from);
    let t_ = to.and_then(range_bound);
    if let (Some(a), Some(b)) = (f, t_) {
        if a > b {
            return err(
                span,
                format!("'from' must be less or equal to 'to'. Got ({a}, {b}"),
            );
        }
    }
    Ok(IntRange::new(f, t_))
}

impl<'a> Resolver<'a> {
    pub fn new(source: &'a dyn AliasSource) -> Resolver<'a> {
        Resolver {
            source,
            aliases: HashMap::new(),
        }
    }

    /// Where its aliases come from.
    pub fn source(&self) -> &'a dyn AliasSource {
        self.source
    }

    /// Resolves `e`, which must denote a type.
    pub fn resolve(&mut self, e: &TypeExpr) -> R<Type> {
        match self.eval(e)? {
            Value::Type(ty) => Ok(ty),
            other => err(
                e.span,
                format!("The expression <{other}> is not a valid type specification."),
            ),
        }
    }

    /// Evaluates `e` to a literal value (types are `Value::Type`).
    pub fn eval(&mut self, e: &TypeExpr) -> R<Value> {
        Ok(match &e.kind {
            TypeExprKind::Integer(i) => Value::Integer(*i),
            TypeExprKind::Float(f) => Value::Float(*f),
            TypeExprKind::String(s) => Value::string(s),
            TypeExprKind::Regex(r) => Value::Regexp(Regex::new(r)),
            TypeExprKind::Boolean(b) => Value::Bool(*b),
            TypeExprKind::Undef => Value::Undef,
            TypeExprKind::Default => Value::Default,
            TypeExprKind::Array(items) => {
                Value::array(items.iter().map(|i| self.eval(i)).collect::<R<Vec<_>>>()?)
            }
            TypeExprKind::Hash(entries) => {
                let mut m = IndexMap::new();
                for (k, v) in entries {
                    let k = self.eval(k)?;
                    let v = self.eval(v)?;
                    m.insert(k, v);
                }
                Value::Hash(Arc::new(m))
            }
            TypeExprKind::Name(n) => {
                if n.starts_with(|c: char| c.is_ascii_uppercase()) || n.starts_with("::") {
                    Value::Type(self.named(n.trim_start_matches("::"), e.span)?)
                } else {
                    Value::string(n)
                }
            }
            TypeExprKind::Access { base, args } => {
                let b = self.eval(base)?;
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(Arg {
                        v: self.eval(a)?,
                        span: a.span,
                    });
                }
                match b {
                    Value::Type(ty) => self.access(&ty, vals, e.span)?,
                    other => {
                        return err(
                            e.span,
                            format!(
                                "The expression <{other}[...]> is not a valid type specification."
                            ),
                        )
                    }
                }
            }
            TypeExprKind::Other => {
                return err(e.span, "The expression is not a valid type specification.")
            }
        })
    }

    /// A capitalised name: a built-in type, an alias, or a resource type.
    fn named(&mut self, name: &str, span: (usize, usize)) -> R<Type> {
        let lower = name.to_lowercase();
        let builtin = match lower.as_str() {
            "any" => t::any(),
            "undef" => t::undef(),
            "default" => t::default(),
            "data" => t::data(),
            "richdata" | "puppet::lookupvalue" => t::rich_data(),
            "richdatakey" | "puppet::lookupkey" => t::rich_data_key(),
            "scalar" => t::scalar(),
            "scalardata" => t::scalar_data(),
            "numeric" => t::numeric(),
            "integer" => t::integer(),
            "float" => t::float(),
            "string" => t::string(),
            "enum" => t::enum_any(),
            "pattern" => t::pattern_any(),
            "boolean" => t::boolean(),
            "regexp" => t::regexp(),
            "semver" => t::semver(),
            "semverrange" => t::semver_range(),
            "timespan" => t::timespan(),
            "timestamp" => t::timestamp(),
            "collection" => t::collection(),
            "array" => t::array(),
            "hash" => t::hash(),
            "struct" => t::structure(),
            "tuple" => t::tuple_any(),
            "variant" => t::variant_empty(),
            "optional" => t::optional_any(),
            "notundef" => t::not_undef_any(),
            "iterable" => t::iterable(),
            "iterator" => t::iterator(),
            "catalogentry" => t::catalog_entry(),
            "resource" => t::resource(),
            "class" => t::class(),
            "type" => t::type_any(),
            "callable" => t::callable(),
            "sensitive" => t::sensitive(),
            "runtime" => t::runtime(),
            "binary" => t::binary(),
            "uri" => t::uri(),
            "init" => t::init(),
            "object" => t::object(),
            "typeset" => t::type_set(),
            "error" => t::error(),
            "deferred" => t::deferred(),
            _ => return self.alias_or_resource(name, span),
        };
        Ok(builtin)
    }

    fn alias_or_resource(&mut self, name: &str, span: (usize, usize)) -> R<Type> {
        let key = name.to_lowercase();
        if let Some(a) = self.aliases.get(&key) {
            return Ok(t::alias(a.clone()));
        }
        let Some(body) = self.source.alias_body(name) else {
            if !self.source.knows_every_alias() && !self.source.is_surely_resource_type(name) {
                return Err(TypeError {
                    message: format!("unknown type {name}"),
                    span,
                    unknown_name: true,
                });
            }
            // Any other capitalised name is a resource type (`File`); the environment
            // index will later say which exist.
            return Ok(t::resource_named(Some(&capitalize(name)), None));
        };
        let a = Alias::new(name);
        self.aliases.insert(key, a.clone());
        let resolved = self.resolve(&body)?;
        a.set_body(normalize(&resolved));
        if !reaches_real_type(&a.resolved(), &mut Vec::new()) {
            // Not kept: a later use must fail the same way, never find a body that names
            // only itself.
            self.aliases.remove(&name.to_lowercase());
            return err(
                span,
                format!("Type alias '{name}' cannot be resolved to a real type"),
            );
        }
        // An alias of an alias is that alias, as in Puppet ("expects a C0 = Integer
        // value" for `type C2 = C1`, `type C1 = C0`): chains stay one level deep, so
        // checks against them are as cheap and as deep as against the last one.
        if let Kind::Alias(inner) = resolved.kind() {
            if inner.id() != a.id() {
                self.aliases.insert(name.to_lowercase(), inner.clone());
                return Ok(resolved);
            }
        }
        Ok(t::alias(a))
    }

    /// `Type[args]` with arguments already evaluated (by the evaluator): the same rules
    /// as in a type expression.
    pub fn access_with_values(
        &mut self,
        ty: &Type,
        args: Vec<Value>,
        span: (usize, usize),
    ) -> R<Value> {
        let args = args.into_iter().map(|v| Arg { v, span }).collect();
        self.access(ty, args, span)
    }

    /// The type a capitalised name denotes (`Integer`, an alias, `File`).
    pub fn named_type(&mut self, name: &str, span: (usize, usize)) -> R<Type> {
        self.named(name.trim_start_matches("::"), span)
    }

    fn access(&mut self, ty: &Type, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        match ty.kind() {
            Kind::Integer(r) if r.unbounded() => {
                let a = flatten(args);
                if a.is_empty() || a.len() > 2 {
                    return err(
                        span,
                        format!(
                            "Integer-Type supports [] with one or two arguments (from, to). Got {}",
                            a.len()
                        ),
                    );
                }
                for x in &a {
                    if !matches!(x.v, Value::Integer(_) | Value::Default) {
                        return err(x.span, format!("Integer-Type [] requires all arguments to be integers (or default). Got {}", ruby_class(&x.v)));
                    }
                }
                let r = int_range(&a[0].v, a.get(1).map(|x| &x.v), span)?;
                type_value(Type::new(Kind::Integer(r)))
            }
            Kind::Float(r) if r.unbounded() => self.access_float(args, span),
            Kind::String(super::model::StringSpec::Any) => {
                let a = flatten(args);
                if a.is_empty() || a.len() > 2 {
                    return err(span, arity("String", 1, Some(2), a.len()));
                }
                let size = self.size_param(&a)?;
                type_value(t::string_sized(size))
            }
            Kind::Collection(None) => {
                let a = flatten(args);
                if a.is_empty() || a.len() > 2 {
                    return err(span, arity("Collection", 1, Some(2), a.len()));
                }
                let size = self.size_param(&a)?;
                type_value(t::collection_sized(Some(size)))
            }
            Kind::Array { size: None, elem } if matches!(elem.kind(), Kind::Any) => {
                self.access_array(args, span)
            }
            Kind::Hash {
                size: None,
                key,
                value,
            } if matches!(key.kind(), Kind::Any) && matches!(value.kind(), Kind::Any) => {
                self.access_hash(args, span)
            }
            Kind::Enum { values, .. } if values.is_empty() => self.access_enum(args, span),
            Kind::Pattern(ps) if ps.is_empty() => self.access_pattern(args, span),
            Kind::Regexp(None) => {
                let a = flatten(args);
                if a.len() != 1 {
                    return err(span, arity("Regexp", 1, Some(1), a.len()));
                }
                match &a[0].v {
                    Value::String(s) => type_value(t::regexp_of(s)),
                    Value::Regexp(r) => type_value(Type::new(Kind::Regexp(Some(r.clone())))),
                    v => err(a[0].span, specialization("Regexp", v, "String or Regexp")),
                }
            }
            Kind::Boolean(None) => {
                let a = flatten(args);
                if a.len() != 1 {
                    return err(span, arity("Boolean", 1, Some(1), a.len()));
                }
                match &a[0].v {
                    Value::Bool(b) => type_value(t::boolean_value(*b)),
                    v => err(
                        a[0].span,
                        specialization("Boolean", v, "TrueClass or FalseClass"),
                    ),
                }
            }
            Kind::Variant(ts) if ts.is_empty() => {
                let a = flatten(args);
                if a.is_empty() {
                    return err(span, arity("Variant", 1, None, 0));
                }
                let types = self.types_of("Variant", &a)?;
                type_value(t::variant(types))
            }
            Kind::Tuple { types, size: None } if types.is_empty() => {
                let mut a = flatten(args);
                let n = a.len();
                let mut size = None;
                if n >= 2 && is_range_param(&a[n - 2].v) && is_range_param(&a[n - 1].v) {
                    size = Some(int_range(&a[n - 2].v, Some(&a[n - 1].v), span)?);
                    a.truncate(n - 2);
                } else if n >= 1 && is_range_param(&a[n - 1].v) {
                    size = Some(IntRange::new(range_bound(&a[n - 1].v), None));
                    a.truncate(n - 1);
                }
                if a.is_empty() {
                    return err(span, arity("Tuple", 1, None, 0));
                }
                let types = self.types_of("Tuple", &a)?;
                type_value(t::tuple(types, size))
            }
            Kind::Struct(es) if es.is_empty() => self.access_struct(args, span),
            Kind::Optional(None) | Kind::NotUndef(None) => self.access_optional(ty, args, span),
            Kind::Type(None) | Kind::Iterable(None) | Kind::Iterator(None) | Kind::Sensitive(_)
                if !matches!(ty.kind(), Kind::Sensitive(i) if !matches!(i.kind(), Kind::Any)) =>
            {
                let name = match ty.kind() {
                    Kind::Type(_) => "Type",
                    Kind::Iterable(_) => "Iterable",
                    Kind::Iterator(_) => "Iterator",
                    _ => "Sensitive",
                };
                let a = flatten(args);
                if a.len() != 1 {
                    return err(span, arity(name, 1, Some(1), a.len()));
                }
                let Value::Type(inner) = &a[0].v else {
                    return err(
                        a[0].span,
                        format!(
                            "{name}-Type[] arguments must be types. Got {}",
                            ruby_class(&a[0].v)
                        ),
                    );
                };
                let inner = inner.clone();
                type_value(match name {
                    "Type" => t::type_of(inner),
                    "Iterable" => t::iterable_of(inner),
                    "Iterator" => t::iterator_of(inner),
                    _ => t::sensitive_of(inner),
                })
            }
            Kind::Callable {
                params: None,
                block: None,
                ret: None,
            } => self.callable(args, span),
            Kind::Resource {
                type_name: None, ..
            } => self.access_resource(args, span),
            Kind::Resource {
                type_name: Some(n),
                title: None,
            } => {
                let a = flatten(args);
                if a.is_empty() {
                    return err(span, untitled_arity(n));
                }
                let n = n.to_string();
                self.titled(&n, &a)
            }
            Kind::Class(None) => self.access_class(args, span),
            Kind::Runtime {
                runtime: None,
                name: None,
            } => self.access_runtime(args, span),
            Kind::Timespan(r) | Kind::Timestamp(r) if r.unbounded() => {
                let is_span = matches!(ty.kind(), Kind::Timespan(_));
                let a = flatten(args);
                if a.len() > 2 {
                    return err(
                        span,
                        arity(
                            if is_span { "Timespan" } else { "Timestamp" },
                            0,
                            Some(2),
                            a.len(),
                        ),
                    );
                }
                let mut b: [Option<i128>; 2] = [None, None];
                for (i, x) in a.iter().enumerate() {
                    b[i] = match &x.v {
                        Value::Default | Value::Undef => None,
                        Value::Integer(n) => Some(i128::from(*n) * NANOS_PER_SEC),
                        Value::Float(f) => Some((*f * NANOS_PER_SEC as f64) as i128),
                        Value::String(s) => {
                            let p = if is_span {
                                parse_timespan(s)
                            } else {
                                parse_timestamp(s)
                            };
                            match p {
                                Some(n) => Some(n),
                                None => {
                                    let formats = if is_span {
                                        TIMESPAN_FORMATS
                                    } else {
                                        TIMESTAMP_FORMATS
                                    };
                                    return err(
                                        x.span,
                                        format!(
                                            "Unable to parse '{s}' using any of the formats {formats}"
                                        ),
                                    );
                                }
                            }
                        }
                        Value::Hash(h) if is_span => Some(timespan_from_hash(h)),
                        Value::Timespan(n) if is_span => Some(*n),
                        Value::Timestamp(n) if !is_span => Some(*n),
                        v => {
                            return err(
                                x.span,
                                specialization(
                                    if is_span { "Timespan" } else { "Timestamp" },
                                    v,
                                    "String or Integer or Float",
                                ),
                            )
                        }
                    };
                }
                let r = TimeRange {
                    from: b[0],
                    to: b[1],
                };
                type_value(Type::new(if is_span {
                    Kind::Timespan(r)
                } else {
                    Kind::Timestamp(r)
                }))
            }
            Kind::SemVer(rs) if rs.is_empty() => self.access_sem_ver(args, span),
            Kind::Uri(None) => {
                let a = flatten(args);
                if a.len() != 1 {
                    return err(span, arity("URI", 1, Some(1), a.len()));
                }
                match &a[0].v {
                    Value::String(s) => type_value(Type::new(Kind::Uri(Some(s.clone())))),
                    v => err(
                        a[0].span,
                        format!("URI-Type[] arguments must be types. Got {}", ruby_class(v)),
                    ),
                }
            }
            Kind::Init(None, _) => match args.first().map(|a| &a.v) {
                Some(Value::Type(x)) => {
                    let rest: Vec<Value> = args[1..].iter().map(|a| a.v.clone()).collect();
                    if let Some(refused) = super::init::refused(Some(x), &rest) {
                        return err(span, refused);
                    }
                    type_value(Type::new(Kind::Init(Some(x.clone()), rest.into())))
                }
                Some(v) => err(
                    span,
                    format!("Init-Type[] arguments must be types. Got {}", ruby_class(v)),
                ),
                None => err(span, "Init-Type[] arguments must be types. Got NilClass"),
            },
            // `Object[{...}]`: an object type by its definition.
            Kind::Object(o) if o.is_any() => match args.first().map(|a| &a.v) {
                Some(Value::Hash(definition)) if args.len() == 1 => {
                    type_value(Type::new(Kind::Object(Arc::new(object_type(definition)))))
                }
                _ => type_value(ty.clone()),
            },
            // `Error[kind, issue_code]`: Error's type parameters.
            Kind::Object(o) if o.name.as_deref() == Some("Error") && o.parameters.is_none() => {
                let mut parameters: Vec<Value> = args.iter().map(|a| a.v.clone()).collect();
                parameters.resize(2, Value::Undef);
                type_value(Type::new(Kind::Object(Arc::new(
                    super::model::ObjectType {
                        parameters: Some(parameters.into()),
                        ..(**o).clone()
                    },
                ))))
            }
            Kind::Object(_) | Kind::TypeSet => type_value(ty.clone()),
            // Puppet's access operator on a type that takes no parameters.
            _ => err(
                span,
                format!(
                    "Operator '[]' is not applicable to {}.",
                    a_an(&format!("{}-Type", super::display::type_name_only(ty)))
                ),
            ),
        }
    }

    /// `Float[...]`.
    fn access_float(&mut self, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        let a = flatten(args);
        if a.is_empty() || a.len() > 2 {
            return err(
                span,
                format!(
                    "Float-Type supports [] with one or two arguments (from, to). Got {}",
                    a.len()
                ),
            );
        }
        let mut b = [f64::NEG_INFINITY, f64::INFINITY];
        for (i, x) in a.iter().enumerate() {
            b[i] = match x.v {
                Value::Integer(n) => n as f64,
                Value::Float(f) => f,
                Value::Default => b[i],
                _ => return err(x.span, format!("Float-Type [] requires all arguments to be floats, or integers (or default). Got {}", ruby_class(&x.v))),
            };
        }
        if b[0] > b[1] {
            return err(
                span,
                format!(
                    "'from' must be less or equal to 'to'. Got ({}, {}",
                    super::display::ruby_float(b[0]),
                    super::display::ruby_float(b[1])
                ),
            );
        }
        type_value(Type::new(Kind::Float(FloatRange {
            from: b[0],
            to: b[1],
        })))
    }

    /// `Array[...]`.
    fn access_array(&mut self, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        let a = flatten(args);
        match a.len() {
            1 => match &a[0].v {
                Value::Type(e) => type_value(t::array_of(e.clone())),
                v => err(
                    a[0].span,
                    format!(
                        "Array-Type[] arguments must be types. Got {}",
                        ruby_class(v)
                    ),
                ),
            },
            2 | 3 => {
                if let Value::Type(e) = &a[0].v {
                    let size = self.size_param(&a[1..])?;
                    type_value(t::array_sized(e.clone(), Some(size)))
                } else if a.len() == 2 {
                    let size = self.size_param(&a)?;
                    type_value(t::array_sized(t::any(), Some(size)))
                } else {
                    err(
                        a[0].span,
                        format!(
                            "Array-Type[] arguments must be types. Got {}",
                            ruby_class(&a[0].v)
                        ),
                    )
                }
            }
            n => err(span, arity("Array", 1, Some(3), n)),
        }
    }

    /// `Hash[...]`.
    fn access_hash(&mut self, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        let a = flatten(args);
        if a.len() == 2 {
            if let (Value::Integer(x), Value::Integer(y)) = (&a[0].v, &a[1].v) {
                let r = int_range(&Value::Integer(*x), Some(&Value::Integer(*y)), span)?;
                return type_value(t::hash_sized(t::any(), t::any(), Some(r)));
            }
        }
        if !(2..=4).contains(&a.len()) {
            return err(span, arity("Hash", 2, Some(4), a.len()));
        }
        let mut kv = Vec::new();
        for x in &a[..2] {
            match &x.v {
                Value::Type(tt) => kv.push(tt.clone()),
                v => {
                    return err(
                        x.span,
                        format!("Hash-Type[] arguments must be types. Got {}", ruby_class(v)),
                    )
                }
            }
        }
        let size = match a.len() {
            2 => None,
            3 => match &a[2].v {
                Value::Type(st) => match st.kind() {
                    Kind::Integer(r) => Some(*r),
                    _ => return err(a[2].span, format!("A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got {}", a_an(&super::labels::class_label(&a[2].v)))),
                },
                Value::Integer(n) => Some(IntRange::new(Some(*n), None)),
                v => return err(a[2].span, format!("A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got {}", a_an(&super::labels::class_label(v)))),
            },
            _ => Some(self.size_param(&a[2..])?),
        };
        type_value(t::hash_sized(kv[0].clone(), kv[1].clone(), size))
    }

    /// `Enum[...]`.
    fn access_enum(&mut self, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        let mut a = flatten(args);
        let mut ci = false;
        if let Some(Arg {
            v: Value::Bool(b), ..
        }) = a.last()
        {
            ci = *b;
            a.pop();
        }
        if a.is_empty() {
            return err(span, arity("Enum", 1, None, 0));
        }
        let mut vals = Vec::new();
        for x in &a {
            match &x.v {
                Value::String(s) => vals.push(s.to_string()),
                v => return err(x.span, specialization("Enum", v, "String")),
            }
        }
        type_value(t::enumeration(&vals, ci))
    }

    /// `Pattern[...]`.
    fn access_pattern(&mut self, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        let a = flatten(args);
        if a.is_empty() {
            return err(span, arity("Pattern", 1, None, 0));
        }
        let mut res = Vec::new();
        for x in &a {
            match &x.v {
                Value::String(s) => {
                    let r = Regex::new(s);
                    res.push(r)
                }
                Value::Regexp(r) => res.push(r.clone()),
                Value::Type(pt) => match pt.kind() {
                    Kind::Regexp(Some(r)) => res.push(r.clone()),
                    Kind::Pattern(inner) => res.extend(inner.iter().cloned()),
                    _ => {
                        return err(
                            x.span,
                            specialization(
                                "Pattern",
                                &x.v,
                                "String or Regexp or Pattern-Type or Regexp-Type",
                            ),
                        )
                    }
                },
                v => {
                    return err(
                        x.span,
                        specialization(
                            "Pattern",
                            v,
                            "String or Regexp or Pattern-Type or Regexp-Type",
                        ),
                    )
                }
            }
        }
        type_value(t::pattern(res))
    }

    /// `Struct[...]`.
    fn access_struct(&mut self, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        if args.len() != 1 {
            return err(span, arity("Struct", 1, Some(1), args.len()));
        }
        let Value::Hash(h) = &args[0].v else {
            return err(args[0].span, specialization("Struct", &args[0].v, "Hash"));
        };
        let mut elems = Vec::new();
        for (k, v) in h.iter() {
            let Value::Type(vt) = v else {
                return err(args[0].span, "Struct element value_type must be a Type");
            };
            let key = match k {
                Value::String(s) => {
                    if s.is_empty() {
                        return err(args[0].span, "Struct element key cannot be an empty String");
                    }
                    let kt = t::string_value(s);
                    if accepts(vt, &t::undef()) {
                        t::optional(kt)
                    } else {
                        kt
                    }
                }
                Value::Type(kt) => {
                    let (key, s) = match kt.kind() {
                        Kind::NotUndef(Some(i)) => (i.clone(), Some(i.clone())),
                        Kind::Optional(Some(i)) => (kt.clone(), Some(i.clone())),
                        Kind::String(_) => (kt.clone(), Some(kt.clone())),
                        Kind::Enum { values, .. } if values.len() == 1 => {
                            (kt.clone(), Some(t::string_value(&values[0])))
                        }
                        _ => (kt.clone(), None),
                    };
                    match s.as_ref().map(|s| s.kind()) {
                        Some(Kind::String(super::model::StringSpec::Value(_))) => key,
                        _ => {
                            return err(args[0].span, format!("Unable to extract a non-empty literal string from Struct member key type {kt}"))
                        }
                    }
                }
                other => {
                    return err(args[0].span, format!("Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: {}", ruby_class(other)))
                }
            };
            elems.push(StructElem {
                key,
                value: vt.clone(),
            });
        }
        type_value(t::structure_of(elems))
    }

    /// `Optional[...]`.
    fn access_optional(&mut self, ty: &Type, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        let is_opt = matches!(ty.kind(), Kind::Optional(_));
        let name = if is_opt { "Optional" } else { "NotUndef" };
        let a = flatten(args);
        if a.len() != 1 || (a.is_empty() && !is_opt) {
            if !is_opt && a.is_empty() {
                return type_value(t::not_undef_any());
            }
            return err(
                span,
                arity(name, if is_opt { 1 } else { 0 }, Some(1), a.len()),
            );
        }
        let inner = match &a[0].v {
            Value::Type(x) => x.clone(),
            Value::String(s) => t::string_value(s),
            v => {
                return err(
                    a[0].span,
                    if is_opt {
                        format!(
                            "Optional-Type[] arguments must be types. Got {}",
                            ruby_class(v)
                        )
                    } else {
                        format!(
                            "NotUndef-Type[] argument must be a Type or a String. Got {}",
                            ruby_class(v)
                        )
                    },
                )
            }
        };
        type_value(if is_opt {
            t::optional(inner)
        } else {
            t::not_undef(inner)
        })
    }

    /// `Resource[...]`.
    fn access_resource(&mut self, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        let a = flatten(args);
        if a.is_empty() {
            return err(span, untitled_arity("Resource"));
        }
        let name = match &a[0].v {
            Value::String(s) => capitalize(s),
            Value::Type(rt) => match rt.kind() {
                Kind::Resource {
                    type_name: Some(n),
                    title: None,
                } => n.to_string(),
                _ => {
                    return err(
                        a[0].span,
                        format!(
                        "First argument to Resource[] must be a resource type or a String. Got {}.",
                        key_type_name(&a[0].v)
                    ),
                    )
                }
            },
            v => {
                return err(
                    a[0].span,
                    format!(
                        "First argument to Resource[] must be a resource type or a String. Got {}.",
                        key_type_name(v)
                    ),
                )
            }
        };
        let base = t::resource_named(Some(&name), None);
        if a.len() == 1 {
            return type_value(base);
        }
        self.titled(&name, &a[1..])
    }

    /// `Class[...]`.
    fn access_class(&mut self, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        let a = flatten(args);
        if a.is_empty() {
            return err(span, untitled_arity("Class"));
        }
        let mut out = Vec::new();
        for x in &a {
            match &x.v {
                Value::String(s) => out.push(Value::Type(t::class_named(Some(&s.trim_start_matches("::").to_lowercase())))),
                Value::Type(ct) => match ct.kind() {
                    Kind::Class(Some(_)) => out.push(x.v.clone()),
                    _ => return err(x.span, format!("Illegal name. The given name '{}' does not conform to the naming rule", key_type_name(&x.v))),
                },
                v => return err(x.span, format!("Illegal Class name in class reference. {} cannot be used where a String is expected", super::labels::a_an_uc(&key_type_name(v)))),
            }
        }
        if out.len() == 1 {
            Ok(out.pop().expect("one"))
        } else {
            Ok(Value::array(out))
        }
    }

    /// `Runtime[...]`.
    fn access_runtime(&mut self, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        let a = flatten(args);
        if a.len() != 2 {
            return err(span, arity("Runtime", 2, Some(2), a.len()));
        }
        let rt = match &a[0].v {
            Value::String(s) => s.clone(),
            v => return err(a[0].span, specialization("Runtime", v, "String")),
        };
        let name = match &a[1].v {
            Value::String(s) => RuntimeName::Name(s.clone()),
            v => return err(a[1].span, specialization("Runtime", v, "String")),
        };
        type_value(Type::new(Kind::Runtime {
            runtime: Some(rt),
            name: Some(name),
        }))
    }

    /// `SemVer[...]`.
    fn access_sem_ver(&mut self, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        let a = flatten(args);
        if a.is_empty() {
            return err(span, arity("SemVer", 1, None, 0));
        }
        let mut ranges = Vec::new();
        for x in &a {
            match &x.v {
                Value::String(s) if VersionRange::too_many_alternatives(s) => {
                    return Err(TypeError {
                        message: "a version range of too many alternatives".into(),
                        span: x.span,
                        unknown_name: true,
                    })
                }
                Value::String(s) => match VersionRange::parse(s) {
                    Some(r) => ranges.push(r),
                    None => return err(x.span, format!("Unparsable version range: \"{s}\"")),
                },
                Value::SemVerRange(r) => ranges.push((**r).clone()),
                v => {
                    return err(
                        x.span,
                        specialization("SemVer", v, "String or SemanticPuppet::VersionRange"),
                    )
                }
            }
        }
        type_value(Type::new(Kind::SemVer(ranges)))
    }

    fn titled(&mut self, type_name: &str, titles: &[Arg]) -> R<Value> {
        let mut out = Vec::new();
        for x in titles {
            match &x.v {
                Value::String(s) => out.push(Value::Type(t::resource_named(Some(type_name), Some(s)))),
                v => {
                    return err(x.span, format!(
                        "Error creating type specialization of {}, Cannot use {} where a resource title String is expected",
                        a_an(&format!("{}-Type", capitalize(type_name))),
                        key_type_name(v)
                    ))
                }
            }
        }
        if out.len() == 1 {
            Ok(out.pop().expect("one"))
        } else {
            Ok(Value::array(out))
        }
    }

    fn types_of(&self, base: &str, a: &[Arg]) -> R<Vec<Type>> {
        a.iter()
            .map(|x| match &x.v {
                Value::Type(tt) => Ok(tt.clone()),
                // Puppet names the class it wants: PAnyType, labelled Any-Type.
                v => err(x.span, specialization(base, v, "Any-Type")),
            })
            .collect()
    }

    /// A size constraint: one `Integer[...]` type, or one or two integers/defaults.
    fn size_param(&self, a: &[Arg]) -> R<IntRange> {
        if a.len() == 1 {
            if let Value::Type(tt) = &a[0].v {
                if let Kind::Integer(r) = tt.kind() {
                    return Ok(*r);
                }
            }
        }
        for x in a {
            if !matches!(x.v, Value::Integer(_) | Value::Default) {
                let what = a_an(&super::labels::class_label(&x.v));
                return err(x.span, format!("A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got {what}"));
            }
        }
        int_range(&a[0].v, a.get(1).map(|x| &x.v), a[0].span)
    }

    /// `Callable[...]` (Puppet's `TypeFactory.callable`).
    fn callable(&mut self, args: Vec<Arg>, span: (usize, usize)) -> R<Value> {
        let mut params: Vec<Arg> = args;
        let mut ret = None;
        if !params.is_empty() {
            if let Value::Array(_) = params[0].v {
                if params.len() != 2 {
                    return err(
                        span,
                        format!(
                            "A Callable-Type[] accepts 2 arguments. Got {}",
                            params.len()
                        ),
                    );
                }
                let Value::Type(r) = &params[1].v else {
                    return err(
                        params[1].span,
                        specialization("Callable", &params[1].v, "Type"),
                    );
                };
                ret = Some(r.clone());
                let Value::Array(items) = &params[0].v else {
                    unreachable!()
                };
                let sp = params[0].span;
                params = items
                    .iter()
                    .map(|v| Arg {
                        v: v.clone(),
                        span: sp,
                    })
                    .collect();
            }
        }
        let mut block = None;
        if let Some(Arg {
            v: Value::Type(last),
            ..
        }) = params.last()
        {
            if is_kind_of_callable(last) {
                block = Some(last.clone());
                params.pop();
            }
        }
        let n = params.len();
        let mut size = None;
        if n >= 2 && is_range_param(&params[n - 2].v) && is_range_param(&params[n - 1].v) {
            size = Some(int_range(&params[n - 2].v, Some(&params[n - 1].v), span)?);
            params.truncate(n - 2);
        } else if n >= 1 && is_range_param(&params[n - 1].v) {
            size = Some(IntRange::new(range_bound(&params[n - 1].v), None));
            params.truncate(n - 1);
        }
        let mut types = self.types_of("Callable", &params)?;
        if types.is_empty() && size.is_some_and(|s| s.hi() > 0) {
            types.push(t::unit());
        }
        Ok(Value::Type(t::callable_of(
            Some(t::tuple(types, size)),
            block,
            ret,
        )))
    }
}

/// `kind_of_callable?`: Callable, Optional[Callable], or a Variant of those.
fn is_kind_of_callable(ty: &Type) -> bool {
    match ty.kind() {
        Kind::Callable { .. } => true,
        Kind::Optional(Some(i)) => is_kind_of_callable(i),
        Kind::Variant(ts) => !ts.is_empty() && ts.iter().all(is_kind_of_callable),
        Kind::Alias(a) => !a.self_recursive() && is_kind_of_callable(&a.resolved()),
        _ => false,
    }
}

/// Whether an alias body reaches some type other than aliases and variants
/// (Puppet rejects `type A = B` `type B = A`).
fn reaches_real_type(ty: &Type, seen: &mut Vec<usize>) -> bool {
    match ty.kind() {
        Kind::Alias(a) => {
            if seen.contains(&a.id()) || !a.is_resolved() {
                return false;
            }
            seen.push(a.id());
            reaches_real_type(&a.resolved(), seen)
        }
        Kind::Variant(ts) => ts.iter().any(|m| reaches_real_type(m, seen)),
        _ => true,
    }
}

/// `file` -> `File`, `foo::bar` -> `Foo::Bar`.
fn capitalize(name: &str) -> String {
    super::display::capitalize_segments(name)
}

/// `Timespan[{hours => 1}]`: a timespan from its parts (Puppet's `Timespan.from_hash`;
/// keys it does not know, like `hour`, count as nothing).
pub fn timespan_from_hash(h: &IndexMap<Value, Value>) -> i128 {
    const UNITS: [(&str, i128); 7] = [
        ("days", 86_400 * NANOS_PER_SEC),
        ("hours", 3_600 * NANOS_PER_SEC),
        ("minutes", 60 * NANOS_PER_SEC),
        ("seconds", NANOS_PER_SEC),
        ("milliseconds", 1_000_000),
        ("microseconds", 1_000),
        ("nanoseconds", 1),
    ];
    let mut total: i128 = 0;
    for (unit, nanos) in UNITS {
        match h.get(&Value::string(unit)) {
            Some(Value::Integer(n)) => total += i128::from(*n) * nanos,
            Some(Value::Float(f)) => total += (*f * nanos as f64) as i128,
            _ => {}
        }
    }
    if matches!(h.get(&Value::string("negative")), Some(Value::Bool(true))) {
        total = -total;
    }
    total
}

/// An object type written `Object[{...}]`: its definition printed as Puppet's normal
/// form prints it (its keys in Pcore's order, each value as `%p` writes it).
fn object_type(definition: &indexmap::IndexMap<Value, Value>) -> super::model::ObjectType {
    const ORDER: [&str; 10] = [
        "name",
        "parent",
        "type_parameters",
        "attributes",
        "constants",
        "functions",
        "equality",
        "equality_include_type",
        "checks",
        "annotations",
    ];
    let mut entries: Vec<(&Value, &Value)> = definition.iter().collect();
    entries.sort_by_key(|(k, _)| {
        k.as_str()
            .and_then(|k| ORDER.iter().position(|o| *o == k))
            .unwrap_or(ORDER.len())
    });
    let printed: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("{} => {v}", k.as_str().unwrap_or_default()))
        .collect();
    super::model::ObjectType {
        name: definition
            .get(&Value::string("name"))
            .and_then(Value::as_str)
            .map(std::sync::Arc::from),
        definition: format!("{{{}}}", printed.join(", ")).into(),
        parameters: None,
    }
}

/// Ruby's `keys.flatten!`: arrays of parameters, however nested, are unfolded.
fn flatten(args: Vec<Arg>) -> Vec<Arg> {
    fn unfold(v: &Value, span: (usize, usize), out: &mut Vec<Arg>) {
        match v {
            Value::Array(items) => items.iter().for_each(|i| unfold(i, span, out)),
            other => out.push(Arg {
                v: other.clone(),
                span,
            }),
        }
    }
    let mut out = Vec::new();
    for a in args {
        unfold(&a.v, a.span, &mut out);
    }
    out
}

/// A type, as the value an access gives.
fn type_value(x: Type) -> R<Value> {
    Ok(Value::Type(x))
}
