//! Calls the evaluator knows: the type conversions (`Integer('0x1F')`, spec 001 "new
//! function" of each type) and the pure built-in functions whose result follows from
//! their arguments. Any other call is [`EvalError::Unsupported`].

use super::query::string_form;
use super::{AbstractValue, EvalError, Evaluator, R};
use crate::ast::{Call, Expr, ExprKind, Lambda, MethodCall, UnaryOp};
use crate::types::value::{IteratorValue, Value};
use crate::types::{infer_detailed, infer_generalized};

fn failed(message: impl Into<String>) -> EvalError {
    EvalError::Failed(message.into())
}

impl Evaluator<'_> {
    /// Evaluates arguments, unfolding `*$array`.
    fn arguments(&mut self, exprs: &[Expr]) -> R<Vec<Value>> {
        let mut args = Vec::with_capacity(exprs.len());
        for a in exprs {
            match &a.kind {
                ExprKind::Unary {
                    op: UnaryOp::Splat,
                    operand,
                } => match self.known(operand)? {
                    Value::Array(items) => args.extend(items.iter().cloned()),
                    other => args.push(other),
                },
                _ => args.push(self.known(a)?),
            }
        }
        Ok(args)
    }

    pub(super) fn call(&mut self, _e: &Expr, call: &Call) -> R<AbstractValue> {
        let args = self.arguments(&call.args)?;
        if let Some(lambda) = &call.lambda {
            let ExprKind::Name(name) = &call.function.kind else {
                return Err(EvalError::Unsupported(
                    "a computed call with a lambda".into(),
                ));
            };
            return Ok(AbstractValue::Known(self.iterate(name, &args, lambda)?));
        }
        let v = match &call.function.kind {
            ExprKind::TypeRef(name) => convert(name, &args)?,
            ExprKind::Name(name) if matches!(name.as_str(), "include" | "contain" | "require") => {
                self.include(name, &args)?
            }
            ExprKind::Name(name) => function(name, &args)?,
            _ => {
                return Err(EvalError::Unsupported(
                    "a call of a computed function".into(),
                ))
            }
        };
        Ok(AbstractValue::Known(v))
    }
}

impl Evaluator<'_> {
    /// `$x.f(args) |...| { }` is `f($x, args) |...| { }` (spec 004 "Method Call").
    pub(super) fn method_call(&mut self, call: &MethodCall) -> R<AbstractValue> {
        let mut args = vec![self.known(&call.receiver)?];
        args.extend(self.arguments(call.args.as_deref().unwrap_or(&[]))?);
        let name = call.method.name.as_str();
        let v = match &call.lambda {
            Some(lambda) => self.iterate(name, &args, lambda)?,
            None => function(name, &args)?,
        };
        Ok(AbstractValue::Known(v))
    }

    /// The iteration functions with a lambda: `each`, `map`, `filter`, `reduce`,
    /// `reverse_each`, `step`.
    fn iterate(&mut self, name: &str, args: &[Value], lambda: &Lambda) -> R<Value> {
        let Some(subject) = args.first() else {
            return Err(failed(format!("'{name}' expects a value to iterate")));
        };
        let mut elements = elements(name, subject)?;
        match name {
            "reverse_each" => elements.reverse(),
            "step" => elements = stepped(elements, args.get(1))?,
            _ => {}
        }
        // Two parameters take a hash entry's key and value, or an element's index and
        // the element (spec 004 "each": `|$key, $value|`, `|$index, $value|`).
        let two = lambda.params.len() == 2;
        let is_hash = matches!(subject, Value::Hash(_));
        let call_with = |this: &mut Self, i: usize, e: &Value| -> R<Value> {
            match (two, is_hash, e) {
                (true, true, Value::Array(kv)) => this.call_lambda(lambda, kv),
                (true, false, _) => {
                    this.call_lambda(lambda, &[Value::Integer(i as i64), e.clone()])
                }
                _ => this.call_lambda(lambda, std::slice::from_ref(e)),
            }
        };
        match name {
            "each" => {
                for (i, e) in elements.iter().enumerate() {
                    call_with(self, i, e)?;
                }
                Ok(subject.clone())
            }
            // Puppet's `reverse_each` and `step` with a block return nothing useful.
            "reverse_each" | "step" => {
                for (i, e) in elements.iter().enumerate() {
                    call_with(self, i, e)?;
                }
                Ok(Value::Undef)
            }
            "map" => {
                let mut out = Vec::with_capacity(elements.len());
                for (i, e) in elements.iter().enumerate() {
                    out.push(call_with(self, i, e)?);
                }
                Ok(Value::array(out))
            }
            "filter" => {
                let mut out = Vec::new();
                for (i, e) in elements.iter().enumerate() {
                    if super::truthy(&call_with(self, i, e)?) {
                        out.push(e.clone());
                    }
                }
                Ok(Value::array(out))
            }
            "reduce" => {
                let mut rest = elements.into_iter();
                let mut memo = match args.get(1) {
                    Some(start) => start.clone(),
                    None => rest.next().unwrap_or(Value::Undef),
                };
                for e in rest {
                    memo = self.call_lambda(lambda, &[memo, e])?;
                }
                Ok(memo)
            }
            _ => Err(EvalError::Unsupported(format!(
                "the function {name} with a lambda"
            ))),
        }
    }
}

/// What an iteration function walks: an array's elements, a hash's `[key, value]`
/// pairs, a string's characters, `0..n` for an integer `n`, the integers of a bounded
/// `Integer[a, b]`, an `Enum`'s values, an iterator's elements.
pub(super) fn elements(name: &str, v: &Value) -> R<Vec<Value>> {
    const LIMIT: i64 = 1_000_000;
    let range = |from: i64, to: i64| -> R<Vec<Value>> {
        if to.saturating_sub(from) > LIMIT {
            return Err(EvalError::Unsupported(
                "iterating over a million values".into(),
            ));
        }
        Ok((from..=to).map(Value::Integer).collect())
    };
    match v {
        Value::Array(items) => Ok(items.to_vec()),
        Value::Hash(map) => Ok(map
            .iter()
            .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
            .collect()),
        Value::String(s) => Ok(s
            .chars()
            .map(|c| Value::string(c.encode_utf8(&mut [0; 4])))
            .collect()),
        Value::Integer(n) => range(0, n - 1),
        Value::Iterator(it) => Ok(it.elements.clone()),
        Value::Type(t) => match t.kind() {
            crate::types::Kind::Integer(r)
                if !r.unbounded() && r.lo() > i64::MIN as i128 && r.hi() < i64::MAX as i128 =>
            {
                range(r.lo() as i64, r.hi() as i64)
            }
            crate::types::Kind::Enum { values, .. } => {
                Ok(values.iter().map(|s| Value::string(s)).collect())
            }
            _ => Err(failed(format!(
                "The function '{name}' was called with a type that cannot be iterated ({t})"
            ))),
        },
        other => Err(failed(format!("'{name}' cannot iterate over {other}"))),
    }
}

/// Every `n`th element from the first (`step`'s `n` must be a positive integer).
fn stepped(elements: Vec<Value>, n: Option<&Value>) -> R<Vec<Value>> {
    match n {
        Some(Value::Integer(n)) if *n >= 1 => {
            Ok(elements.into_iter().step_by(*n as usize).collect())
        }
        Some(other) => {
            let expected = crate::types::t::integer_range(Some(1), None);
            let why = crate::types::mismatch::describe_value(&expected, other, &[]);
            Err(failed(format!(
                "'step' parameter 'step' {}",
                why.join("; ")
            )))
        }
        None => Err(failed("'step' expects 2 arguments, got 1")),
    }
}

/// An iterator over `subject`'s elements in the given order (what `reverse_each` and
/// `step` return without a lambda).
fn iterator(name: &str, subject: &Value, elements: Vec<Value>) -> R<Value> {
    let element_type = crate::types::infer::iteration_element_type(subject).ok_or_else(|| {
        failed(format!(
            "'{name}' expects an Iterable value, got {}",
            infer_generalized(subject)
        ))
    })?;
    Ok(Value::Iterator(std::sync::Arc::new(IteratorValue {
        elements,
        element_type,
    })))
}

/// Pure built-in functions.
fn function(name: &str, args: &[Value]) -> R<Value> {
    match (name, args) {
        ("type", [v]) => Ok(Value::Type(infer_detailed(v))),
        ("sprintf", [Value::String(format), rest @ ..]) => {
            Ok(Value::string(&super::format::sprintf(format, rest)?))
        }
        ("type", [v, Value::String(mode)]) => match &**mode {
            "detailed" => Ok(Value::Type(infer_detailed(v))),
            "generalized" => Ok(Value::Type(infer_generalized(v))),
            // An array's element types reduced to their common type, with its size.
            "reduced" => match v {
                Value::Array(items) if !items.is_empty() => {
                    let common = items
                        .iter()
                        .map(crate::types::infer)
                        .reduce(|a, b| crate::types::common(&a, &b))
                        .expect("a non-empty array");
                    let n = items.len() as i64;
                    Ok(Value::Type(crate::types::t::array_sized(
                        common,
                        Some(crate::types::IntRange::new(Some(n), Some(n))),
                    )))
                }
                _ => Err(EvalError::Unsupported(
                    "type(x, 'reduced') of this value".into(),
                )),
            },
            _ => Err(EvalError::Unsupported(format!("type(x, '{mode}')"))),
        },
        ("reverse_each", [subject]) => {
            let mut items = elements(name, subject)?;
            items.reverse();
            iterator(name, subject, items)
        }
        ("step", [subject, n]) => {
            iterator(name, subject, stepped(elements(name, subject)?, Some(n))?)
        }
        ("each" | "map" | "filter" | "reduce", [_, ..]) => {
            Err(failed(format!("'{name}' expects a block")))
        }
        ("notice" | "info" | "warning" | "debug" | "err" | "alert" | "crit" | "emerg", _) => {
            Ok(Value::Undef)
        }
        _ => Err(EvalError::Unsupported(format!("the function {name}"))),
    }
}

/// `Type(value, ...)`: the conversions of spec 001 ("Creating values with new").
fn convert(type_name: &str, args: &[Value]) -> R<Value> {
    match (type_name, args) {
        ("Integer", [v]) => to_integer(v, None),
        ("Integer", [v, Value::Integer(radix)]) => to_integer(v, Some(*radix)),
        ("Numeric", [v]) => to_numeric(v),
        ("Float", [v]) => to_float(v),
        ("Boolean", [v]) => to_boolean(v),
        // A Float's default format is `%f` (String(1.5) is '1.500000').
        ("String", [v]) => Ok(Value::string(&super::format::default_string(v))),
        ("String", [v, format]) => Ok(Value::string(&super::format::format_value(v, format)?)),
        ("Timespan", [v]) => to_timespan(v),
        ("SemVer", [Value::String(s)]) => semver::Version::parse(s.trim())
            .map(|v| Value::SemVer(std::sync::Arc::new(v)))
            .map_err(|_| failed(format!("The string '{s}' cannot be converted to SemVer"))),
        ("SemVerRange", [Value::String(s)]) => crate::types::semver_range::VersionRange::parse(s)
            .map(|r| Value::SemVerRange(std::sync::Arc::new(r)))
            .ok_or_else(|| failed(format!("Unparsable version range: \"{s}\""))),
        ("Timestamp", [v]) => to_timestamp(v),
        ("Array" | "Tuple", [v]) => to_array(type_name, v),
        // `Array(x, true)`: an array stays as it is, anything else is wrapped.
        ("Array" | "Tuple", [v, Value::Bool(true)]) => Ok(match v {
            Value::Array(_) => v.clone(),
            other => Value::array(vec![other.clone()]),
        }),
        ("Numeric", [_, _]) | ("Float", [_, _]) => Err(failed(format!(
            "Error while evaluating a Function Call, Converted value from {type_name}.new() has wrong type"
        ))),
        _ => Err(EvalError::Unsupported(format!("{type_name}.new with these arguments"))),
    }
}

/// `Array(x)`: the elements of anything iterable (a hash's `[key, value]` pairs, a
/// string's characters, `0..n-1` for an integer).
fn to_array(type_name: &str, v: &Value) -> R<Value> {
    if crate::types::infer::iteration_element_type(v).is_none() {
        return Err(failed(format!(
            "Error while evaluating a Function Call, 'new_array' Value of type {} cannot be converted to {type_name}",
            infer_generalized(v)
        )));
    }
    Ok(Value::array(elements("new_array", v)?))
}

/// Puppet's integer literal forms in strings: `0x1F`, `0b101`, `017` (octal), `17`,
/// with a sign; a radix given explicitly rules out the other forms' prefixes but its own.
fn parse_integer(s: &str, radix: Option<i64>) -> Option<i64> {
    let t = s.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let lower = digits.to_ascii_lowercase();
    let (base, body) = match radix {
        None => {
            if let Some(h) = lower.strip_prefix("0x") {
                (16, h.to_string())
            } else if let Some(b) = lower.strip_prefix("0b") {
                (2, b.to_string())
            } else if lower.len() > 1 && lower.starts_with('0') {
                (8, lower[1..].to_string())
            } else {
                (10, lower)
            }
        }
        // Puppet 7 wants the prefix even with the radix given ('ff' fails, '0xff' not).
        Some(16) => (16, lower.strip_prefix("0x")?.to_string()),
        Some(2) => (2, lower.strip_prefix("0b").unwrap_or(&lower).to_string()),
        Some(8) => (
            8,
            lower
                .strip_prefix('0')
                .filter(|r| !r.is_empty())
                .unwrap_or(&lower)
                .to_string(),
        ),
        Some(10) => (10, lower),
        Some(_) => return None,
    };
    if body.is_empty() || body.contains('_') {
        return None;
    }
    let n = i64::from_str_radix(&body, base).ok()?;
    Some(if negative { -n } else { n })
}

fn not_convertible(v: &Value, to: &str) -> EvalError {
    failed(format!(
        "Error while evaluating a Function Call, The string '{}' cannot be converted to {to}",
        string_form(v)
    ))
}

fn to_integer(v: &Value, radix: Option<i64>) -> R<Value> {
    match v {
        Value::Integer(i) => Ok(Value::Integer(*i)),
        Value::Float(f) if f.is_finite() && f.abs() < 9.2e18 => {
            Ok(Value::Integer(f.trunc() as i64))
        }
        Value::Bool(b) => Ok(Value::Integer(*b as i64)),
        Value::String(s) => parse_integer(s, radix)
            .map(Value::Integer)
            .ok_or_else(|| not_convertible(v, "Integer")),
        _ => Err(EvalError::Unsupported(format!("Integer.new({v})"))),
    }
}

fn parse_float(s: &str) -> Option<f64> {
    let t = s.trim();
    let looks_numeric = t
        .trim_start_matches(['-', '+'])
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit());
    if !looks_numeric || t.contains('_') {
        return None;
    }
    t.parse::<f64>().ok().filter(|f| f.is_finite())
}

pub(super) fn to_numeric(v: &Value) -> R<Value> {
    match v {
        Value::Integer(_) | Value::Float(_) => Ok(v.clone()),
        Value::Bool(b) => Ok(Value::Integer(*b as i64)),
        Value::String(s) => parse_integer(s, None)
            .map(Value::Integer)
            .or_else(|| parse_float(s).map(Value::Float))
            .ok_or_else(|| not_convertible(v, "Numeric")),
        _ => Err(EvalError::Unsupported(format!("Numeric.new({v})"))),
    }
}

fn to_float(v: &Value) -> R<Value> {
    match v {
        Value::Integer(i) => Ok(Value::Float(*i as f64)),
        Value::Float(_) => Ok(v.clone()),
        Value::Bool(b) => Ok(Value::Float(*b as i64 as f64)),
        Value::String(s) => parse_float(s)
            .or_else(|| parse_integer(s, None).map(|i| i as f64))
            .map(Value::Float)
            .ok_or_else(|| not_convertible(v, "Float")),
        _ => Err(EvalError::Unsupported(format!("Float.new({v})"))),
    }
}

fn to_boolean(v: &Value) -> R<Value> {
    match v {
        Value::Bool(_) => Ok(v.clone()),
        Value::Integer(i) => Ok(Value::Bool(*i != 0)),
        Value::Float(f) => Ok(Value::Bool(*f != 0.0)),
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" => Ok(Value::Bool(true)),
            "false" | "no" | "n" => Ok(Value::Bool(false)),
            _ => Err(not_convertible(v, "Boolean")),
        },
        _ => Err(EvalError::Unsupported(format!("Boolean.new({v})"))),
    }
}

/// `Timespan(x)`: seconds, a string in Puppet's default formats, or a hash of parts.
fn to_timespan(v: &Value) -> R<Value> {
    use crate::types::time::{parse_timespan, NANOS_PER_SEC};
    match v {
        Value::Timespan(_) => Ok(v.clone()),
        Value::Integer(i) => Ok(Value::Timespan(i128::from(*i) * NANOS_PER_SEC)),
        Value::Float(f) if f.is_finite() => {
            Ok(Value::Timespan((*f * NANOS_PER_SEC as f64) as i128))
        }
        Value::String(s) => parse_timespan(s)
            .map(Value::Timespan)
            .ok_or_else(|| not_convertible(v, "Timespan")),
        Value::Hash(h) => Ok(Value::Timespan(crate::types::resolve::timespan_from_hash(
            h,
        ))),
        _ => Err(EvalError::Unsupported(format!("Timespan.new({v})"))),
    }
}

/// `Timestamp(x)`: seconds since the epoch, or a string in Puppet's default formats.
fn to_timestamp(v: &Value) -> R<Value> {
    use crate::types::time::{parse_timestamp, NANOS_PER_SEC};
    match v {
        Value::Timestamp(_) => Ok(v.clone()),
        Value::Integer(i) => Ok(Value::Timestamp(i128::from(*i) * NANOS_PER_SEC)),
        Value::Float(f) if f.is_finite() => {
            Ok(Value::Timestamp((*f * NANOS_PER_SEC as f64) as i128))
        }
        Value::String(s) => parse_timestamp(s)
            .map(Value::Timestamp)
            .ok_or_else(|| not_convertible(v, "Timestamp")),
        _ => Err(EvalError::Unsupported(format!("Timestamp.new({v})"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_strings_follow_their_prefix_or_the_radix() {
        // spec 001, Integer.new: "0x" hex, "0b" binary, a leading 0 octal.
        assert_eq!(parse_integer("0xFF", None), Some(255));
        assert_eq!(parse_integer("010", None), Some(8));
        assert_eq!(parse_integer("010", Some(10)), Some(10));
        assert_eq!(parse_integer("0x10", Some(10)), None);
        assert_eq!(parse_integer("-0b101", None), Some(-5));
    }
}
