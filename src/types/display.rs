//! Printing types exactly as Puppet 7 prints them (`TypeFormatter#string`).
//!
//! A type alias at the top of the printed type prints as its definition
//! (`Tree = Array[Variant[Integer, Tree]]`), as Puppet's `PTypeAliasType#to_s` does;
//! aliases inside are expanded too, except a self-recursive alias inside its own
//! expansion and the built-in aliases (`Data`, `RichData`, `RichDataKey`).
//! A type that is not an alias prints nested aliases by name only.

use std::fmt::{self, Write};

use super::model::{is_builtin_alias, IntRange, Kind, StringSpec, StructElem, Type};
use super::time::{format_timespan, format_timestamp};

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printer {
            out: String::new(),
            depth: 0,
            expanded: matches!(self.kind(), Kind::Alias(_)),
            expanding: Vec::new(),
        };
        p.ty(self);
        f.write_str(&p.out)
    }
}

/// Prints a type without expanding a top-level alias (the name only).
pub fn type_name_only(t: &Type) -> String {
    let mut p = Printer {
        out: String::new(),
        depth: 0,
        expanded: false,
        expanding: Vec::new(),
    };
    p.ty(t);
    p.out
}

/// Puppet's single- or double-quoted rendering of a string (`puppet_quote`).
pub fn puppet_quote(s: &str) -> String {
    if s.chars().any(|c| (c as u32) < 0x20) {
        return puppet_double_quote(s);
    }
    let mut b = String::with_capacity(s.len() + 2);
    b.push('\'');
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            b.push('\\');
            b.push(c);
            escaped = false;
        } else if c == '\'' {
            b.push_str("\\'");
        } else if c == '\\' {
            escaped = true;
        } else {
            b.push(c);
        }
    }
    if escaped {
        b.push('\\');
    }
    b.push('\'');
    b
}

fn puppet_double_quote(s: &str) -> String {
    let mut b = String::from("\"");
    for c in s.chars() {
        match c {
            '\t' => b.push_str("\\t"),
            '\n' => b.push_str("\\n"),
            '\r' => b.push_str("\\r"),
            '"' => b.push_str("\\\""),
            '$' => b.push_str("\\$"),
            '\\' => b.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(b, "\\u{{{:X}}}", c as u32);
            }
            c => b.push(c),
        }
    }
    b.push('"');
    b
}

/// Ruby's `Float#to_s`: `1.0`, `2.5`, `1.0e+20`, `1.0e-05`.
pub fn ruby_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let a = f.abs();
    if a != 0.0 && !(1e-4..1e16).contains(&a) {
        let s = format!("{f:e}");
        let (mant, exp) = s.split_once('e').expect("exponent form");
        let mant = if mant.contains('.') {
            mant.to_string()
        } else {
            format!("{mant}.0")
        };
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mant}e{sign}{:02}", exp.abs());
    }
    let s = format!("{f}");
    if s.contains('.') {
        s
    } else {
        format!("{s}.0")
    }
}

/// `Foo::bar` -> `Foo::Bar`, `file` -> `File` (Puppet's `capitalize_segments`).
pub fn capitalize_segments(name: &str) -> String {
    if name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return name.to_string();
    }
    name.split("::")
        .map(|seg| {
            let lower = seg.to_lowercase();
            let mut cs = lower.chars();
            match cs.next() {
                Some(c) => c.to_uppercase().collect::<String>() + cs.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join("::")
}

struct Printer {
    out: String,
    expanded: bool,
    expanding: Vec<usize>,
    /// How deep in the printed type `ty` is: an object type prints its definition only
    /// at the top, and by its name inside another type (`Type[Error]`).
    depth: usize,
}

impl Printer {
    /// `Name` or `Name[...]` with the parameters written by `body`.
    fn array(&mut self, name: &str, empty: bool, body: impl FnOnce(&mut Printer)) {
        self.out.push_str(name);
        if !empty {
            self.out.push('[');
            body(self);
            self.out.push(']');
        }
    }

    /// `Error['my/kind', undef]`.
    fn object_with_parameters(&mut self, o: &super::model::ObjectType) {
        self.out.push_str(o.name.as_deref().unwrap_or("Object"));
        self.out.push('[');
        for (i, p) in o.parameters.iter().flat_map(|ps| ps.iter()).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push_str(&p.to_string());
        }
        self.out.push(']');
    }

    fn sep(&mut self, first: &mut bool) {
        if !*first {
            self.out.push_str(", ");
        }
        *first = false;
    }

    fn range_parts(r: Option<&IntRange>) -> Vec<String> {
        match r {
            None => vec![],
            Some(r) if r.unbounded() => vec![],
            Some(r) => {
                let mut v = vec![match r.from {
                    Some(f) => f.to_string(),
                    None => "default".into(),
                }];
                if let Some(t) = r.to {
                    v.push(t.to_string())
                }
                v
            }
        }
    }

    fn list(&mut self, types: &[Type], extra: Vec<String>) {
        let mut first = true;
        for t in types {
            self.sep(&mut first);
            self.ty(t);
        }
        for e in extra {
            self.sep(&mut first);
            self.out.push_str(&e);
        }
    }

    fn ty(&mut self, t: &Type) {
        self.depth += 1;
        self.ty_at_depth(t);
        self.depth -= 1;
    }

    fn ty_at_depth(&mut self, t: &Type) {
        match t.kind() {
            Kind::Any => self.out.push_str("Any"),
            Kind::Unit => self.out.push_str("Unit"),
            Kind::Undef => self.out.push_str("Undef"),
            Kind::Default => self.out.push_str("Default"),
            Kind::Scalar => self.out.push_str("Scalar"),
            Kind::ScalarData => self.out.push_str("ScalarData"),
            Kind::Numeric => self.out.push_str("Numeric"),
            Kind::Binary => self.out.push_str("Binary"),
            Kind::CatalogEntry => self.out.push_str("CatalogEntry"),
            Kind::SemVerRange => self.out.push_str("SemVerRange"),
            Kind::TypeSet => self.out.push_str(
                super::model::pcore_forms()
                    .get("type_set")
                    .map_or("TypeSet", String::as_str),
            ),
            Kind::Boolean(v) => {
                self.array("Boolean", v.is_none(), |p| {
                    p.out
                        .push_str(if v == &Some(true) { "true" } else { "false" })
                });
            }
            Kind::Integer(r) => {
                let parts = Self::range_parts(Some(r));
                self.array("Integer", parts.is_empty(), |p| {
                    p.out.push_str(&parts.join(", "))
                });
            }
            Kind::Float(r) => self.float(r),
            Kind::String(spec) => {
                let parts = match spec {
                    StringSpec::Size(r) => Self::range_parts(Some(r)),
                    _ => vec![],
                };
                self.array("String", parts.is_empty(), |p| {
                    p.out.push_str(&parts.join(", "))
                });
            }
            Kind::Enum {
                values,
                case_insensitive,
            } => self.enumeration(values, *case_insensitive),
            Kind::Pattern(res) => {
                self.array("Pattern", res.is_empty(), |p| {
                    let mut first = true;
                    for r in res.iter() {
                        p.sep(&mut first);
                        let _ = write!(p.out, "/{}/", r.source);
                    }
                });
            }
            Kind::Regexp(r) => {
                self.array("Regexp", r.is_none(), |p| {
                    if let Some(r) = r {
                        let _ = write!(p.out, "/{}/", r.source);
                    }
                });
            }
            Kind::SemVer(ranges) => {
                self.array("SemVer", ranges.is_empty(), |p| {
                    let mut first = true;
                    for r in ranges {
                        p.sep(&mut first);
                        let _ = write!(p.out, "'{r}'");
                    }
                });
            }
            Kind::Timespan(r) | Kind::Timestamp(r) => {
                self.time(matches!(t.kind(), Kind::Timespan(_)), r)
            }
            Kind::Collection(size) => {
                let parts = Self::range_parts(size.as_ref());
                self.array("Collection", parts.is_empty(), |p| {
                    p.out.push_str(&parts.join(", "))
                });
            }
            Kind::Array { elem, size } => {
                if size.is_some_and(|s| s.is_empty_range()) {
                    self.out.push_str("Array[0, 0]");
                } else {
                    let is_default = matches!(elem.kind(), Kind::Any) && size.is_none();
                    self.array("Array", is_default, |p| {
                        p.list(std::slice::from_ref(elem), Self::range_parts(size.as_ref()))
                    });
                }
            }
            Kind::Hash { key, value, size } => self.hash(key, value, size),
            Kind::Struct(elems) => {
                self.array("Struct", elems.is_empty(), |p| {
                    p.out.push('{');
                    let mut first = true;
                    for e in elems {
                        p.sep(&mut first);
                        p.struct_elem(e);
                    }
                    p.out.push('}');
                });
            }
            Kind::Tuple { types, size } => {
                self.array("Tuple", types.is_empty(), |p| {
                    p.list(types, Self::range_parts(size.as_ref()))
                });
            }
            Kind::Variant(ts) => {
                self.array("Variant", ts.is_empty(), |p| p.list(ts, vec![]));
            }
            Kind::Optional(inner) => self.wrapper("Optional", inner.as_ref(), true),
            Kind::NotUndef(inner) => {
                let inner = inner.as_ref().filter(|t| !matches!(t.kind(), Kind::Any));
                self.wrapper("NotUndef", inner, true)
            }
            Kind::Iterable(inner) => self.wrapper("Iterable", inner.as_ref(), false),
            Kind::Iterator(inner) => self.wrapper("Iterator", inner.as_ref(), false),
            Kind::Type(inner) => self.wrapper("Type", inner.as_ref(), false),
            Kind::Init(inner, args) if !args.is_empty() => {
                self.out.push_str("Init[");
                if let Some(t) = inner {
                    self.ty(t);
                }
                for a in args.iter() {
                    self.out.push_str(", ");
                    self.out.push_str(&a.to_string());
                }
                self.out.push(']');
            }
            Kind::Init(inner, _) => self.wrapper("Init", inner.as_ref(), false),
            Kind::Sensitive(inner) => {
                let inner = Some(inner).filter(|t| !matches!(t.kind(), Kind::Any));
                self.wrapper("Sensitive", inner, false)
            }
            Kind::Resource { type_name, title } => match type_name {
                None => self.out.push_str("Resource"),
                Some(n) => {
                    let name = capitalize_segments(n);
                    self.array(&name, title.is_none(), |p| {
                        if let Some(title) = title {
                            p.out.push_str(&puppet_quote(title))
                        }
                    })
                }
            },
            Kind::Class(name) => {
                self.array("Class", name.is_none(), |p| {
                    if let Some(n) = name {
                        p.out.push_str(n)
                    }
                });
            }
            Kind::Callable { params, block, ret } => self.callable(params, block, ret),
            Kind::Runtime { runtime, name } => self.runtime(runtime, name),
            Kind::Uri(param) => {
                self.array("URI", param.is_none(), |p| {
                    if let Some(s) = param {
                        p.out.push_str(&puppet_quote(s))
                    }
                });
            }
            // Inside another type, an object type by its name (`Object` itself).
            Kind::Object(o) if self.depth > 1 && (o.name.is_some() || o.is_any()) => {
                match (&o.name, &o.parameters) {
                    (Some(name), None) => self.out.push_str(name),
                    (None, _) => self.out.push_str("Object"),
                    (Some(_), Some(_)) => self.object_with_parameters(o),
                }
            }
            Kind::Object(o) => match (&o.name, &o.parameters) {
                (Some(_), Some(_)) => self.object_with_parameters(o),
                _ => {
                    self.out.push_str("Object[");
                    self.out.push_str(&o.definition);
                    self.out.push(']');
                }
            },
            Kind::Reference(name) => {
                let _ = write!(self.out, "TypeReference[{}]", puppet_quote(name));
            }
            Kind::Alias(a) => {
                let expand = self.expanded
                    && !is_builtin_alias(&a.name)
                    && !self.expanding.contains(&a.id());
                self.out.push_str(&a.name);
                if expand {
                    self.out.push_str(" = ");
                    self.expanding.push(a.id());
                    let body = a.resolved();
                    self.ty(&body);
                    self.expanding.pop();
                }
            }
        }
    }

    /// `Optional[T]`, `NotUndef[T]`, ...; a string-with-value inside `Optional` and
    /// `NotUndef` prints as the quoted string (`Optional['a']`).
    /// `Float[from, to]`.
    fn float(&mut self, r: &super::model::FloatRange) {
        let parts: Vec<String> = if r.unbounded() {
            vec![]
        } else {
            let mut v = vec![if r.from == f64::NEG_INFINITY {
                "default".to_string()
            } else {
                ruby_float(r.from)
            }];
            if r.to != f64::INFINITY {
                v.push(ruby_float(r.to))
            }
            v
        };
        self.array("Float", parts.is_empty(), |p| {
            p.out.push_str(&parts.join(", "))
        });
    }

    /// `Enum[...]`, with `true` when it ignores case.
    fn enumeration(&mut self, values: &[std::sync::Arc<str>], case_insensitive: bool) {
        self.array("Enum", values.is_empty(), |p| {
            let mut first = true;
            for v in values {
                p.sep(&mut first);
                p.out.push_str(&puppet_quote(v));
            }
            if case_insensitive {
                p.out.push_str(", true");
            }
        });
    }

    /// `Timespan[...]` or `Timestamp[...]`.
    fn time(&mut self, is_span: bool, r: &super::model::TimeRange) {
        let fmt_one = |n: i128| {
            if is_span {
                format_timespan(n)
            } else {
                format_timestamp(n)
            }
        };
        let name = if is_span { "Timespan" } else { "Timestamp" };
        self.array(name, r.unbounded(), |p| {
            match r.from {
                None => p.out.push_str("default"),
                Some(f) => {
                    let _ = write!(p.out, "'{}'", fmt_one(f));
                }
            }
            if let Some(to) = r.to {
                if Some(to) != r.from {
                    let _ = write!(p.out, ", '{}'", fmt_one(to));
                }
            }
        });
    }

    /// `Hash[key, value, size]`.
    fn hash(&mut self, key: &Type, value: &Type, size: &Option<IntRange>) {
        if size.is_some_and(|s| s.is_empty_range()) {
            self.out.push_str("Hash[0, 0]");
        } else {
            let is_default = matches!(key.kind(), Kind::Any)
                && matches!(value.kind(), Kind::Any)
                && size.is_none();
            self.array("Hash", is_default, |p| {
                p.list(
                    &[key.clone(), value.clone()],
                    Self::range_parts(size.as_ref()),
                )
            });
        }
    }

    /// `Runtime[runtime, name]`.
    fn runtime(
        &mut self,
        runtime: &Option<std::sync::Arc<str>>,
        name: &Option<super::model::RuntimeName>,
    ) {
        self.array("Runtime", runtime.is_none() && name.is_none(), |p| {
            match runtime {
                Some(r) => p.out.push_str(r),
                None => p.out.push_str("undef"),
            }
            p.out.push_str(", ");
            match name {
                Some(super::model::RuntimeName::Name(n)) => p.out.push_str(&puppet_quote(n)),
                Some(super::model::RuntimeName::Pattern(r, rep)) => {
                    let _ = write!(p.out, "[/{}/, {}]", r.source, puppet_quote(rep));
                }
                None => p.out.push_str("undef"),
            }
        });
    }

    fn wrapper(&mut self, name: &str, inner: Option<&Type>, string_value_as_literal: bool) {
        self.array(name, inner.is_none(), |p| {
            if let Some(t) = inner {
                match t.kind() {
                    Kind::String(StringSpec::Value(v)) if string_value_as_literal => {
                        p.out.push_str(&puppet_quote(v))
                    }
                    _ => p.ty(t),
                }
            }
        });
    }

    /// A Struct member as Puppet prints it: the key is written `Optional['k']` or
    /// `NotUndef['k']` only where the value type alone would suggest otherwise.
    fn struct_elem(&mut self, e: &StructElem) {
        let value_optional = super::accepts::accepts(&e.value, &super::model::t::undef());
        match e.key.kind() {
            Kind::Optional(_) => {
                if value_optional {
                    self.out.push_str(&puppet_quote(e.name()))
                } else {
                    self.ty(&e.key)
                }
            }
            _ => {
                if value_optional {
                    let _ = write!(self.out, "NotUndef[{}]", puppet_quote(e.name()));
                } else {
                    self.out.push_str(&puppet_quote(e.name()))
                }
            }
        }
        self.out.push_str(" => ");
        self.ty(&e.value);
    }

    fn callable_params(&mut self, params: &Type, block: &Option<Type>) {
        let (types, size) = match params.kind() {
            Kind::Tuple { types, size } => (types.as_slice(), size.as_ref()),
            _ => (&[][..], None),
        };
        let shown: Vec<Type> = types
            .iter()
            .filter(|t| !matches!(t.kind(), Kind::Unit))
            .cloned()
            .collect();
        let extra = if types.is_empty() {
            vec!["0".to_string(), "0".to_string()]
        } else {
            Self::range_parts(size)
        };
        let mut first = true;
        for t in &shown {
            self.sep(&mut first);
            self.ty(t);
        }
        for e in extra {
            self.sep(&mut first);
            self.out.push_str(&e);
        }
        if let Some(b) = block {
            self.sep(&mut first);
            self.ty(b);
        }
    }

    fn callable(&mut self, params: &Option<Type>, block: &Option<Type>, ret: &Option<Type>) {
        match (params, ret) {
            (None, None) => self.out.push_str("Callable"),
            (Some(p), None) => self.array("Callable", false, |pr| pr.callable_params(p, block)),
            (None, Some(r)) => self.array("Callable", false, |pr| {
                pr.out.push_str("[], ");
                pr.ty(r)
            }),
            (Some(p), Some(r)) => self.array("Callable", false, |pr| {
                pr.out.push('[');
                pr.callable_params(p, block);
                pr.out.push_str("], ");
                pr.ty(r)
            }),
        }
    }
}

/// Prints a type with every alias expanded (`to_alias_expanded_s`), as mismatch
/// messages show expected types: `Port = Integer[1, 65535]`.
pub fn alias_expanded(t: &Type) -> String {
    let mut p = Printer {
        out: String::new(),
        depth: 0,
        expanded: true,
        expanding: Vec::new(),
    };
    p.ty(t);
    p.out
}
