//! How Puppet 7 names values in its error messages, so that pupcheck's messages (the
//! evaluator's, and the type resolver's for `Type[...]`) are Puppet's words: they
//! become user-facing findings. Here, in `types`, because both layers need it.
//!
//! Puppet builds its messages from three different renderings of a value, and which
//! one a message uses decides its text:
//! - [`label`] / [`a_an`]: the `ModelLabelProvider`'s name of what a value is
//!   (`Integer`, `Undef Value`, `Integer[1, 5]-Type`), in "Operator '%' is not
//!   applicable to a Float." and "Comparison of: Hash >= String, ...".
//! - [`ruby_to_s`]: Ruby's `to_s` of the value itself, in "The value '...' cannot be
//!   converted to Numeric." (`''` for undef, `(?-mix:o+)` for a regexp, Ruby's
//!   `inspect` for arrays and hashes: `{"a"=>1}`).
//! - [`ruby_class_name`] / [`ruby_class_label`]: the Ruby class, where the message
//!   comes from Ruby itself ("no implicit conversion of Integer into String") or from
//!   Puppet's time classes, which name their operand by class ("A Version cannot be
//!   added to a Timespan").

use crate::types::display::ruby_float;
use crate::types::time::{format_timespan, format_timestamp};
use crate::types::value::{base64, Value};
use crate::types::Kind;

/// Puppet's `label` of a value (`Puppet::Pops::Model::ModelLabelProvider`): its kind,
/// not its contents. A type is `<type>-Type`, a resource reference `<type> Resource-
/// Reference`; values Puppet has no label for (`default`, which is a Ruby Symbol, a
/// URI, an iterator) fall back to `Object`.
pub fn label(v: &Value) -> String {
    match v {
        Value::Undef => "Undef Value".into(),
        Value::Bool(_) => "Boolean".into(),
        Value::Integer(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::String(_) => "String".into(),
        Value::Regexp(_) => "Regexp".into(),
        Value::Array(_) => "Array".into(),
        Value::Hash(_) => "Hash".into(),
        Value::Type(t) => match t.kind() {
            Kind::Resource { title: Some(_), .. } => format!("{t} Resource-Reference"),
            _ => format!("{t}-Type"),
        },
        Value::SemVer(_) => "Semver".into(),
        Value::SemVerRange(_) => "SemverRange".into(),
        Value::Timespan(_) => "Timespan".into(),
        Value::Timestamp(_) => "Timestamp".into(),
        Value::Sensitive(_) => "Sensitive".into(),
        Value::Binary(_) => "Binary".into(),
        Value::Default | Value::Uri(_) | Value::Iterator(_) => "Object".into(),
        Value::Object(o) => o.type_name.to_string(),
    }
}

/// Puppet's label of a value's class rather than of the value: a type by its kind
/// alone (`Float-Type` for `Float[1.0]`, `TypeAlias-Type` for an alias), as the
/// messages that check a type parameter's kind print it; other values as [`label`].
pub fn class_label(v: &Value) -> String {
    match v {
        Value::Type(t) => match t.kind() {
            Kind::Alias(_) => "TypeAlias-Type".into(),
            _ => format!("{}-Type", super::mismatch::simple_name(t)),
        },
        _ => label(v),
    }
}

/// `text` with Puppet's indefinite article (`LabelProvider#a_an`): "an" before a vowel,
/// `y` included ("an Undef Value", "an Integer-Type"); a leading quote is skipped
/// ("a '+' expression").
pub fn a_an(text: &str) -> String {
    format!("{} {text}", article(text))
}

/// [`a_an`] capitalised (`LabelProvider#a_an_uc`): "A Version", "An Integer".
pub fn a_an_uc(text: &str) -> String {
    let article = article(text);
    let mut chars = article.chars();
    let first = chars.next().map(|c| c.to_ascii_uppercase());
    format!("{}{} {text}", first.unwrap_or('A'), chars.as_str())
}

fn article(text: &str) -> &'static str {
    let mut chars = text.chars();
    let mut first = chars.next();
    if matches!(first, Some('"' | '\'')) {
        first = chars.next();
    }
    match first.map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'y') => "an",
        _ => "a",
    }
}

/// Ruby's `to_s` of a value: a string as it is, `undef` (Ruby's nil) as nothing, a
/// regexp as `(?-mix:source)`, a collection as Ruby's `inspect` of it, a type as
/// Puppet prints it, a time value in Puppet's default format.
pub fn ruby_to_s(v: &Value) -> String {
    match v {
        Value::Undef => String::new(),
        Value::Default => "default".into(),
        Value::Bool(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) => ruby_float(*f),
        Value::String(s) => s.to_string(),
        Value::Regexp(r) => format!("(?-mix:{})", escape_slashes(&r.source)),
        Value::Array(_) | Value::Hash(_) => ruby_inspect(v),
        Value::Type(t) => t.to_string(),
        Value::SemVer(s) => s.to_string(),
        // The text the range was made from (`~> 1.2`), not its normalised form.
        Value::SemVerRange(r) => r.to_string(),
        Value::Timespan(n) => format_timespan(*n),
        Value::Timestamp(n) => format_timestamp(*n),
        Value::Sensitive(_) => "Sensitive [value redacted]".into(),
        Value::Binary(b) => base64(b),
        Value::Uri(u) => u.to_string(),
        Value::Iterator(_) => format!("{}-Value", crate::types::infer_generalized(v)),
        Value::Object(_) => v.to_string(),
    }
}

/// Ruby's `inspect` of a value, as `to_s` shows the elements of an array or hash:
/// strings double-quoted with Ruby's escapes, `nil`, `:default`, `{"a"=>1}` (Ruby 3.1,
/// which Puppet 7 runs on). Ruby shows a type, a time value, a binary or an iterator
/// as an object with its memory address; no one can match that, so those are shown
/// as `to_s` shows them.
pub fn ruby_inspect(v: &Value) -> String {
    match v {
        Value::Undef => "nil".into(),
        Value::Default => ":default".into(),
        Value::String(s) => ruby_string_inspect(s),
        Value::Regexp(r) => format!("/{}/", escape_slashes(&r.source)),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(ruby_inspect).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Hash(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}=>{}", ruby_inspect(k), ruby_inspect(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::SemVerRange(r) => r.normalized(),
        Value::Sensitive(_) => "#<Sensitive [value redacted]>".into(),
        Value::Uri(u) => format!("#<{} {u}>", uri_class(u)),
        other => ruby_to_s(other),
    }
}

/// Ruby's `String#inspect`: double quotes; `"`, `\` and the `#` that would start an
/// interpolation (`#{`, `#$`, `#@`) escaped; ASCII control characters as escapes.
fn ruby_string_inspect(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '#' if matches!(chars.peek(), Some('{' | '$' | '@')) => out.push_str("\\#"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x0C' => out.push_str("\\f"),
            '\x0B' => out.push_str("\\v"),
            '\x08' => out.push_str("\\b"),
            '\x07' => out.push_str("\\a"),
            '\x1B' => out.push_str("\\e"),
            c if (c as u32) < 0x20 || c == '\x7F' => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A regexp's source as Ruby shows it between slashes: a `/` not already escaped
/// gets a backslash.
fn escape_slashes(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut escaped = false;
    for c in source.chars() {
        if c == '/' && !escaped {
            out.push('\\');
        }
        escaped = c == '\\' && !escaped;
        out.push(c);
    }
    out
}

/// The Ruby class of the value Puppet holds, by its full name: what Ruby's own
/// messages name ("can't convert SemanticPuppet::Version into Float").
pub fn ruby_class_name(v: &Value) -> String {
    match v {
        Value::Undef => "NilClass".into(),
        Value::Default => "Symbol".into(),
        Value::Bool(true) => "TrueClass".into(),
        Value::Bool(false) => "FalseClass".into(),
        Value::Integer(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::String(_) => "String".into(),
        Value::Regexp(_) => "Regexp".into(),
        Value::Array(_) => "Array".into(),
        Value::Hash(_) => "Hash".into(),
        Value::Type(t) => format!("Puppet::Pops::Types::{}", type_class(t)),
        Value::SemVer(_) => "SemanticPuppet::Version".into(),
        Value::SemVerRange(_) => "SemanticPuppet::VersionRange".into(),
        Value::Timespan(_) => "Puppet::Pops::Time::Timespan".into(),
        Value::Timestamp(_) => "Puppet::Pops::Time::Timestamp".into(),
        Value::Sensitive(_) => "Puppet::Pops::Types::PSensitiveType::Sensitive".into(),
        Value::Binary(_) => "Puppet::Pops::Types::PBinaryType::Binary".into(),
        Value::Uri(u) => uri_class(u).into(),
        Value::Iterator(_) => "Puppet::Pops::Types::Iterator".into(),
        Value::Object(o) => format!("Puppet::DataTypes::{}", o.type_name),
    }
}

/// The last segment of [`ruby_class_name`]: how Puppet's Timespan and Timestamp name
/// the other operand of an operation they refuse (`TimeData#label`: "a Version").
pub fn ruby_class_label(v: &Value) -> String {
    let name = ruby_class_name(v);
    name.rsplit("::").next().unwrap_or(&name).to_string()
}

/// How Ruby's "no implicit conversion of X into String" names a value: `nil`, `true`
/// and `false` by themselves, anything else by its class.
pub fn implicit_conversion_name(v: &Value) -> String {
    match v {
        Value::Undef => "nil".into(),
        Value::Bool(b) => b.to_string(),
        other => ruby_class_name(other),
    }
}

/// The class of Puppet's type object: `P<Name>Type` (`PIntegerType`); a resource type
/// or reference is a `PResourceType`, an alias a `PTypeAliasType`.
fn type_class(t: &crate::types::Type) -> String {
    match t.kind() {
        Kind::Resource { .. } => "PResourceType".into(),
        Kind::Alias(_) => "PTypeAliasType".into(),
        Kind::Reference(_) => "PTypeReferenceType".into(),
        _ => {
            let shown = crate::types::display::type_name_only(t);
            let base = shown.split('[').next().unwrap_or(&shown);
            format!("P{base}Type")
        }
    }
}

/// Ruby's class for a URI, which `URI.parse` picks by scheme.
fn uri_class(uri: &str) -> &'static str {
    let scheme = uri.split(':').next().unwrap_or("").to_ascii_lowercase();
    match scheme.as_str() {
        "http" => "URI::HTTP",
        "https" => "URI::HTTPS",
        "ftp" => "URI::FTP",
        "file" => "URI::File",
        "ldap" => "URI::LDAP",
        "ldaps" => "URI::LDAPS",
        "mailto" => "URI::MailTo",
        "ws" => "URI::WS",
        "wss" => "URI::WSS",
        _ => "URI::Generic",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::model::Regex;

    #[test]
    fn articles_follow_puppets_rule() {
        assert_eq!(a_an("Undef Value"), "an Undef Value");
        assert_eq!(a_an("Semver"), "a Semver");
        assert_eq!(a_an("'+' expression"), "a '+' expression");
        assert_eq!(a_an_uc("Version"), "A Version");
        assert_eq!(a_an_uc("Integer"), "An Integer");
    }

    #[test]
    fn to_s_is_rubys() {
        assert_eq!(ruby_to_s(&Value::Undef), "");
        assert_eq!(
            ruby_to_s(&Value::Regexp(Regex::new("a/b"))),
            "(?-mix:a\\/b)"
        );
        let hash = Value::hash(vec![(Value::string("a"), Value::Integer(1))]);
        assert_eq!(ruby_to_s(&hash), "{\"a\"=>1}");
        let array = Value::array(vec![Value::Undef, Value::Default, Value::string("x\"#{")]);
        assert_eq!(ruby_to_s(&array), "[nil, :default, \"x\\\"\\#{\"]");
    }
}
