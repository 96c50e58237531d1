//! Values of the Puppet language as the evaluator will hold them (spec 001
//! "Types, Values, and Variables": each type's values), with Puppet's `%p` display
//! (`'a'`, `[1, 2.0]`, `{'a' => undef}`, `/re/`, `Timespan('0-01:00:00.0')`).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use indexmap::IndexMap;

use super::display::{puppet_quote, ruby_float};
use super::model::{Regex, Type};
use super::semver_range::VersionRange;
use super::time::{format_timespan, format_timestamp};

/// A Puppet value. Collections are shared (`Arc`), so cloning is cheap.
#[derive(Clone, Debug)]
pub enum Value {
    Undef,
    Default,
    Bool(bool),
    Integer(i64),
    Float(f64),
    String(Arc<str>),
    Regexp(Regex),
    Array(Arc<Vec<Value>>),
    /// Insertion-ordered, as Puppet hashes are.
    Hash(Arc<IndexMap<Value, Value>>),
    Type(Type),
    SemVer(Arc<semver::Version>),
    SemVerRange(Arc<VersionRange>),
    /// Nanoseconds.
    Timespan(i128),
    /// Nanoseconds since the epoch (UTC).
    Timestamp(i128),
    Sensitive(Arc<Value>),
    Binary(Arc<Vec<u8>>),
    Uri(Arc<str>),
    /// What `reverse_each` and `step` return without a lambda (spec 001 "Iterator").
    Iterator(Arc<IteratorValue>),
    /// A value of a Pcore object type (an `Error`).
    Object(Arc<ObjectValue>),
}

/// A value of a Pcore object type: the type's name and the attributes set, in the
/// type's order (an `Error`'s `msg`, `kind`, `details`, `issue_code`).
#[derive(Debug, PartialEq)]
pub struct ObjectValue {
    pub type_name: Arc<str>,
    pub attributes: Vec<(Arc<str>, Value)>,
}

impl ObjectValue {
    /// The attribute `name`, `undef` when it is not set.
    pub fn get(&self, name: &str) -> Value {
        self.attributes
            .iter()
            .find(|(n, _)| &**n == name)
            .map_or(Value::Undef, |(_, v)| v.clone())
    }

    /// Whether the object's attributes match its type's parameters (`Error[kind,
    /// issue_code]`): a string equal to the attribute, a regexp or type it matches, or
    /// `undef` (any).
    pub fn matches_parameters(&self, parameters: &[Value]) -> bool {
        let names = ["kind", "issue_code"];
        parameters.iter().zip(names).all(|(p, name)| {
            let attribute = self.get(name);
            match p {
                Value::Undef => true,
                Value::String(s) => attribute.as_str() == Some(&**s),
                Value::Regexp(r) => attribute.as_str().is_some_and(|a| r.is_match(a)),
                Value::Type(t) => super::instance::instance_of(&attribute, t),
                _ => false,
            }
        })
    }

    /// The type Puppet's `type()` gives it (`Error['my/kind', undef]`).
    pub fn detailed_type(&self) -> crate::types::Type {
        let mut object = super::model::ObjectType::builtin(&self.type_name);
        if &*self.type_name == "Error" {
            object.parameters = Some(vec![self.get("kind"), self.get("issue_code")].into());
        }
        crate::types::Type::new(super::model::Kind::Object(Arc::new(object)))
    }
}

/// An iterator's elements (materialised: every source pupcheck iterates is finite) and
/// the element type Puppet gives it, computed from its source when it was made.
#[derive(Debug)]
pub struct IteratorValue {
    pub elements: Vec<Value>,
    pub element_type: Type,
}

impl Value {
    pub fn string(s: &str) -> Value {
        Value::String(Arc::from(s))
    }
    pub fn array(v: Vec<Value>) -> Value {
        Value::Array(Arc::new(v))
    }
    pub fn hash(entries: Vec<(Value, Value)>) -> Value {
        Value::Hash(Arc::new(entries.into_iter().collect()))
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    /// Identity of the value node, for recursion guards.
    pub(crate) fn id(&self) -> usize {
        self as *const Value as usize
    }
}

impl PartialEq for Value {
    // Structural, exact equality (Ruby `eql?`), as used for hash keys. Puppet's `==`
    // operator (case-insensitive strings, 1 == 1.0) belongs to the evaluator.
    fn eq(&self, o: &Value) -> bool {
        match (self, o) {
            (Value::Undef, Value::Undef) | (Value::Default, Value::Default) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Integer(a), Value::Integer(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Regexp(a), Value::Regexp(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Hash(a), Value::Hash(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x == y)
            }
            (Value::Type(a), Value::Type(b)) => a == b,
            (Value::SemVer(a), Value::SemVer(b)) => a == b,
            (Value::SemVerRange(a), Value::SemVerRange(b)) => a.to_string() == b.to_string(),
            (Value::Timespan(a), Value::Timespan(b))
            | (Value::Timestamp(a), Value::Timestamp(b)) => a == b,
            // Puppet's `Sensitive#==`: the values are `eql?` (no case folding, `1` is
            // not `1.0`), as the derived equality of the values is.
            (Value::Sensitive(a), Value::Sensitive(b)) => a == b,
            (Value::Binary(a), Value::Binary(b)) => a == b,
            (Value::Uri(a), Value::Uri(b)) => a == b,
            // Ruby compares iterators by identity.
            (Value::Iterator(a), Value::Iterator(b)) => Arc::ptr_eq(a, b),
            (Value::Object(a), Value::Object(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Value {}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Value::Bool(b) => b.hash(state),
            Value::Integer(i) => i.hash(state),
            Value::Float(f) => f.to_bits().hash(state),
            Value::String(s) | Value::Uri(s) => s.hash(state),
            Value::Regexp(r) => r.source.hash(state),
            Value::Array(a) => {
                for v in a.iter() {
                    v.hash(state)
                }
            }
            Value::Hash(h) => {
                for (k, v) in h.iter() {
                    k.hash(state);
                    v.hash(state)
                }
            }
            Value::Type(t) => t.hash(state),
            Value::SemVer(v) => v.hash(state),
            Value::SemVerRange(r) => r.to_string().hash(state),
            Value::Timespan(n) | Value::Timestamp(n) => n.hash(state),
            Value::Binary(b) => b.hash(state),
            Value::Iterator(it) => (Arc::as_ptr(it) as usize).hash(state),
            Value::Object(o) => {
                o.type_name.hash(state);
                for (n, v) in &o.attributes {
                    n.hash(state);
                    v.hash(state)
                }
            }
            Value::Undef | Value::Default | Value::Sensitive(_) => {}
        }
    }
}

/// Standard base64 (for `Binary` display).
pub(crate) fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

impl fmt::Display for Value {
    /// Puppet's `%p` form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Undef => f.write_str("undef"),
            Value::Default => f.write_str("default"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Integer(i) => write!(f, "{i}"),
            Value::Float(x) => f.write_str(&ruby_float(*x)),
            Value::String(s) => f.write_str(&puppet_quote(s)),
            Value::Regexp(r) => write!(f, "/{}/", r.source),
            Value::Array(a) => write_list(f, a),
            // Puppet's `%p` of an iterator lists what it would produce.
            Value::Iterator(it) => write_list(f, &it.elements),
            Value::Hash(h) => {
                f.write_str("{")?;
                for (i, (k, v)) in h.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{} => {}", Nested(k), Nested(v))?;
                }
                f.write_str("}")
            }
            Value::Type(t) => write!(f, "{t}"),
            Value::SemVer(v) => write!(f, "{v}"),
            Value::SemVerRange(r) => f.write_str(&r.normalized()),
            Value::Timespan(n) => write!(f, "Timespan('{}')", format_timespan(*n)),
            Value::Timestamp(n) => write!(f, "Timestamp('{}')", format_timestamp(*n)),
            Value::Sensitive(_) => f.write_str("Sensitive [value redacted]"),
            Value::Binary(b) => write!(f, "Binary(\"{}\")", base64(b)),
            Value::Uri(u) => write!(f, "URI({})", puppet_quote(u)),
            // `Error({'msg' => 'boom'})`: the attributes set.
            Value::Object(o) => {
                write!(f, "{}({{", o.type_name)?;
                let set = o
                    .attributes
                    .iter()
                    .filter(|(_, v)| !matches!(v, Value::Undef));
                for (i, (n, v)) in set.enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{} => {}", puppet_quote(n), Nested(v))?;
                }
                f.write_str("})")
            }
        }
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, items: &[Value]) -> fmt::Result {
    f.write_str("[")?;
    for (i, v) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{}", Nested(v))?;
    }
    f.write_str("]")
}

/// A value inside an array or hash, as Puppet's `%p` shows it there: a Sensitive as
/// Ruby's `inspect` of the object (`#<Sensitive [value redacted]>`); only the value
/// itself is shown as `Sensitive [value redacted]`.
struct Nested<'v>(&'v Value);

impl fmt::Display for Nested<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::Sensitive(_) => f.write_str("#<Sensitive [value redacted]>"),
            other => write!(f, "{other}"),
        }
    }
}
