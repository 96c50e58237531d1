//! Puppet's own string and collection functions whose value follows from their
//! arguments alone (`upcase('a')`, `size($list)`, `keys($h)`): evaluated where the
//! arguments are known, so what they give flows on like any value. The dispatcher
//! (`dispatch`) has judged the arguments against the signatures before; anything its
//! signatures take that is not modelled here (a string outside ASCII, whose case
//! mapping Ruby and Rust may not agree on, a hash for `upcase`) stays unknown.
//! Each answer is Puppet 7's (tests/evaluator.rs asks puppet-oracle's).

use super::{EvalError, R};
use crate::types::Value;

/// The value of `name(args)`, for the functions modelled here; `None` for others.
pub(super) fn call(name: &str, args: &[Value]) -> Option<R<Value>> {
    Some(match (name, args) {
        ("upcase", [v]) => map_strings(v, &|s| s.to_ascii_uppercase()),
        ("downcase", [v]) => map_strings(v, &|s| s.to_ascii_lowercase()),
        ("capitalize", [v]) => map_strings(v, &capitalize),
        ("strip", [v]) => map_strings(v, &|s| s.trim_matches(is_blank).to_string()),
        ("lstrip", [v]) => map_strings(v, &|s| s.trim_start_matches(is_blank).to_string()),
        ("rstrip", [v]) => map_strings(v, &|s| s.trim_end_matches(is_blank).to_string()),
        ("size" | "length", [v]) => size(v),
        ("empty", [v]) => empty(v),
        ("abs", [Value::Integer(i)]) => i
            .checked_abs()
            .map(Value::Integer)
            .ok_or_else(|| unsupported("abs of the least integer")),
        ("abs", [Value::Float(f)]) => Ok(Value::Float(f.abs())),
        ("keys", [Value::Hash(h)]) => Ok(Value::array(h.keys().cloned().collect())),
        ("values", [Value::Hash(h)]) => Ok(Value::array(h.values().cloned().collect())),
        ("flatten", [Value::Array(items)]) => Ok(Value::array(flatten(items))),
        // Ruby's `Array#join` (nested arrays joined too); only strings, whose text is
        // themselves (a number's or a hash's is Ruby's `to_s`).
        ("join", [Value::Array(items)]) => join(items, ""),
        ("join", [Value::Array(items), Value::String(delimiter)]) => join(items, delimiter),
        _ => return None,
    })
}

fn unsupported(what: &str) -> EvalError {
    EvalError::Unsupported(what.into())
}

/// Ruby's whitespace for `strip` (without NUL, which Ruby versions treat apart).
fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0B' | '\x0C' | '\r')
}

/// Ruby's `capitalize` (of an ASCII string): the first character up, the others down.
fn capitalize(s: &str) -> String {
    let mut out = s.to_ascii_lowercase();
    if let Some(first) = out.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    out
}

/// The case functions: a string mapped, a number as it is, an array's elements each
/// in turn (Puppet's signatures). Strings outside ASCII are not modelled.
fn map_strings(v: &Value, f: &dyn Fn(&str) -> String) -> R<Value> {
    match v {
        Value::String(s) if s.is_ascii() && !s.contains('\0') => Ok(Value::string(&f(s))),
        Value::Integer(_) | Value::Float(_) => Ok(v.clone()),
        Value::Array(items) => items
            .iter()
            .map(|item| map_strings(item, f))
            .collect::<R<Vec<Value>>>()
            .map(Value::array),
        _ => Err(unsupported("this function on a value not modelled")),
    }
}

/// `size`/`length`: a string's characters, a collection's entries, a binary's bytes.
fn size(v: &Value) -> R<Value> {
    let n = match v {
        Value::String(s) => s.chars().count(),
        Value::Array(items) => items.len(),
        Value::Hash(h) => h.len(),
        Value::Binary(bytes) => bytes.len(),
        _ => return Err(unsupported("size of a value not modelled")),
    };
    Ok(Value::Integer(n as i64))
}

fn empty(v: &Value) -> R<Value> {
    let empty = match v {
        Value::String(s) => s.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Hash(h) => h.is_empty(),
        Value::Binary(bytes) => bytes.is_empty(),
        Value::Undef => true,
        _ => return Err(unsupported("empty of a value not modelled")),
    };
    Ok(Value::Bool(empty))
}

fn flatten(items: &[Value]) -> Vec<Value> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Value::Array(inner) => out.extend(flatten(inner)),
            other => out.push(other.clone()),
        }
    }
    out
}

/// `join(array, delimiter)` of an array of strings (nested arrays flattened).
fn join(items: &[Value], delimiter: &str) -> R<Value> {
    let mut parts = Vec::with_capacity(items.len());
    for item in flatten(items) {
        match item {
            Value::String(s) => parts.push(s.to_string()),
            _ => return Err(unsupported("join of a value other than a string")),
        }
    }
    Ok(Value::string(&parts.join(delimiter)))
}
