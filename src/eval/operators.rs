//! Puppet's operators on known values (spec 004 "Expressions": arithmetic, comparison,
//! equality, matching, `in`), following Puppet 7 where the spec text differs.

use super::{EvalError, FailureKind};
use crate::types::labels::{
    a_an, a_an_uc, implicit_conversion_name, label, ruby_class_label, ruby_to_s,
};
use crate::types::time::NANOS_PER_SEC;
use crate::types::value::Value;
use crate::types::{accepts, instance_of};
use std::sync::Arc;

type R = Result<Value, EvalError>;

fn failed(message: impl Into<String>) -> EvalError {
    EvalError::Failed(message.into())
}

fn unsupported(what: impl Into<String>) -> EvalError {
    EvalError::Unsupported(what.into())
}

/// Puppet's truthiness: only `undef` and `false` are false (spec 004 "if": an empty
/// string is true since Puppet 4).
pub fn truthy(v: &Value) -> bool {
    !matches!(v, Value::Undef | Value::Bool(false))
}

/// `==` (spec 004 "Comparison Operators"): strings ignore case, numbers compare by
/// value (`1 == 1.0`), collections element by element, types by mutual assignability.
pub fn equals(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => x.to_lowercase() == y.to_lowercase(),
        (Value::Integer(x), Value::Float(y)) | (Value::Float(y), Value::Integer(x)) => {
            (*x as f64) == *y
        }
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equals(p, q))
        }
        (Value::Hash(x), Value::Hash(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| equals(v, w)))
        }
        (Value::Type(x), Value::Type(y)) => accepts(x, y) && accepts(y, x),
        (Value::Timespan(_) | Value::Timestamp(_), _)
        | (_, Value::Timespan(_) | Value::Timestamp(_)) => {
            match (time_or_seconds(a), time_or_seconds(b)) {
                (Some(x), Some(y)) => x == y,
                _ => false,
            }
        }
        _ => a == b,
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

// Puppet's messages (pops/issues.rb), each with the value rendering Puppet uses.

/// RUNTIME_ERROR: a Ruby exception raised while an operator ran (a `TypeError` or
/// `ArgumentError` of Ruby or of Puppet's time classes), which Puppet prefixes with
/// the expression it was evaluating.
fn runtime_error(op: &str, detail: impl std::fmt::Display) -> EvalError {
    failed(format!(
        "Error while evaluating a '{op}' expression, {detail}"
    ))
}

/// OPERATOR_NOT_APPLICABLE: the left operand has no such operator.
fn not_applicable(op: &str, left: &Value) -> EvalError {
    failed(format!(
        "Operator '{op}' is not applicable to {}.",
        a_an(&label(left))
    ))
}

/// OPERATOR_NOT_APPLICABLE_WHEN: the operator refuses this right operand.
fn not_applicable_when(op: &str, left: &Value, right: &Value) -> EvalError {
    failed(format!(
        "Operator '{op}' is not applicable to {} when right side is {}.",
        a_an(&label(left)),
        a_an(&label(right))
    ))
}

/// NOT_NUMERIC: the value as Ruby's `to_s` writes it, quoted.
fn not_numeric(v: &Value) -> EvalError {
    failed(format!(
        "The value '{}' cannot be converted to Numeric.",
        ruby_to_s(v)
    ))
}

/// DIV_BY_ZERO: Ruby's `ZeroDivisionError` of an integer division.
pub(super) fn division_by_zero() -> EvalError {
    EvalError::FailedAs("Division by 0".into(), FailureKind::DivisionByZero)
}

/// RESULT_IS_INFINITY: a float division by zero.
fn infinity(op: &str) -> EvalError {
    EvalError::FailedAs(
        format!("The result of the {op} expression is Infinity"),
        FailureKind::DivisionByZero,
    )
}

/// NUMERIC_OVERFLOW: the exact result (Ruby has big integers) outside Puppet's 64-bit
/// integers, in Ruby's `"%#+x"` form (`+0x8000000000000000`).
fn numeric_overflow(op: &str, negative: bool, magnitude_hex: &str) -> EvalError {
    let (bound, sign) = if negative { ("min", '-') } else { ("max", '+') };
    failed(format!(
        "A '{op}' expression resulted in a value outside of Puppet Integer {bound} range, got '{sign}0x{magnitude_hex}'"
    ))
}

/// Checks an exact integer result against Puppet's range.
fn in_range(op: &str, exact: i128) -> R {
    i64::try_from(exact)
        .map(Value::Integer)
        .map_err(|_| numeric_overflow(op, exact < 0, &format!("{:x}", exact.unsigned_abs())))
}

/// COMPARISON_NOT_POSSIBLE: names the operands by their labels, with the reason
/// Puppet's comparison gave.
fn not_comparable(op: &str, a: &Value, b: &Value, detail: &str) -> EvalError {
    failed(format!(
        "Comparison of: {} {op} {}, is not possible. Caused by '{detail}'.",
        label(a),
        label(b)
    ))
}

/// `<`, `<=`, `>`, `>=` (spec 004): numbers, strings (ignoring case), versions, time
/// values, and types, where `A < B` means B accepts every A and is not A. As in
/// Puppet's `CompareOperator`, the left operand decides what the right may be.
pub fn compare(op: &str, a: &Value, b: &Value) -> R {
    use std::cmp::Ordering;
    let not_possible = |detail: &str| Err(not_comparable(op, a, b, detail));
    let ordering = match (a, b) {
        // A type compared with anything but a type is neither smaller nor larger.
        (Value::Type(x), Value::Type(y)) => {
            let (x_in_y, y_in_x) = (accepts(y, x), accepts(x, y));
            let result = match op {
                "<" => x_in_y && !y_in_x,
                "<=" => x_in_y,
                ">" => y_in_x && !x_in_y,
                _ => y_in_x,
            };
            return Ok(Value::Bool(result));
        }
        (Value::Type(_), _) => return Ok(Value::Bool(false)),
        (Value::String(x), Value::String(y)) => x.to_lowercase().cmp(&y.to_lowercase()),
        (Value::String(_), _) => return not_possible("A String is not comparable to a non String"),
        (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
        (Value::Integer(_) | Value::Float(_), Value::Integer(_) | Value::Float(_)) => {
            let (x, y) = (number(a).unwrap_or(0.0), number(b).unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
        // A version is a Ruby Numeric that Ruby cannot turn into a Float.
        (Value::Integer(_) | Value::Float(_), Value::SemVer(_)) => {
            return Err(runtime_error(
                op,
                "can't convert SemanticPuppet::Version into Float",
            ))
        }
        (Value::Integer(_) | Value::Float(_), Value::Timespan(_) | Value::Timestamp(_)) => {
            compare_times(a, b)?
        }
        (Value::Integer(_) | Value::Float(_), _) => {
            return not_possible("A Numeric is not comparable to non Numeric")
        }
        // A Timespan and a Timestamp are not comparable (each refuses the other).
        (Value::Timespan(_), Value::Timespan(_))
        | (Value::Timestamp(_), Value::Timestamp(_))
        | (Value::Timespan(_) | Value::Timestamp(_), Value::Integer(_) | Value::Float(_)) => {
            compare_times(a, b)?
        }
        (Value::Timespan(_), _) => {
            return not_possible("Timespans are only comparable to Timespans, Integers, and Floats")
        }
        (Value::Timestamp(_), _) => {
            return not_possible(
                "Timestamps are only comparable to Timestamps, Integers, and Floats",
            )
        }
        (Value::SemVer(x), Value::SemVer(y)) => x.cmp(y),
        (Value::SemVer(_), _) => return not_possible("Versions not comparable to non Versions"),
        // `default` is a Ruby Symbol: equal to itself, not comparable to anything else.
        (Value::Default, Value::Default) => Ordering::Equal,
        (Value::Default, _) => return not_possible("Symbol not comparable to non Symbol"),
        _ => {
            return not_possible(
                "Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable",
            )
        }
    };
    Ok(Value::Bool(match op {
        "<" => ordering == Ordering::Less,
        "<=" => ordering != Ordering::Greater,
        ">" => ordering == Ordering::Greater,
        _ => ordering != Ordering::Less,
    }))
}

/// Orders two values of which one is a time value and the other a time value or a
/// number (seconds).
fn compare_times(a: &Value, b: &Value) -> Result<std::cmp::Ordering, EvalError> {
    match (time_or_seconds(a), time_or_seconds(b)) {
        (Some(x), Some(y)) => Ok(x.cmp(&y)),
        _ => Err(beyond_nanoseconds()),
    }
}

/// `=~` (spec 004 "Match Operators"): a string against a regexp or a pattern string,
/// any value against a type, a version against a range. As in Puppet, the right
/// operand is made a regexp before the left one is checked to be a string.
pub fn matches(a: &Value, b: &Value) -> Result<bool, EvalError> {
    match b {
        Value::Type(t) => return Ok(instance_of(a, t)),
        // A version (or a string that is one) against a range: whether it is in it.
        Value::SemVerRange(range) => {
            return Ok(match a {
                Value::SemVer(v) => range.includes(v),
                Value::String(s) => semver::Version::parse(s).is_ok_and(|v| range.includes(&v)),
                _ => false,
            })
        }
        Value::Regexp(_) | Value::String(_) => {}
        // MATCH_NOT_REGEXP, with Ruby's TypeError from `Regexp.new`.
        other => {
            return Err(failed(format!(
                "Can not convert right match operand to a regular expression. Caused by 'no implicit conversion of {} into String'.",
                implicit_conversion_name(other)
            )))
        }
    }
    let Value::String(subject) = a else {
        // MATCH_NOT_STRING. (A pattern string Ruby cannot compile fails before this,
        // with Ruby's own words; an error either way.)
        return Err(failed(format!(
            "Left match operand must result in a String value. Got {}.",
            a_an(&label(a))
        )));
    };
    match b {
        Value::Regexp(r) => r
            .try_match(subject)
            .ok_or_else(|| unsupported("a regexp pupcheck cannot run")),
        Value::String(p) => crate::types::model::Regex::new(p)
            .try_match(subject)
            .ok_or_else(|| unsupported("a pattern string pupcheck cannot run")),
        _ => unreachable!("only a regexp or a pattern string is left"),
    }
}

fn contains_bytes(haystack: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || haystack.windows(needle.len()).any(|w| w == needle)
}

/// `in` (spec 004 "in"): a substring (ignoring case), an element (by `==`, a regexp
/// match or a type match), or a hash key.
pub fn contains(a: &Value, b: &Value) -> Result<bool, EvalError> {
    let element_matches = |e: &Value| -> Result<bool, EvalError> {
        Ok(match a {
            Value::Regexp(_) => matches!(e, Value::String(_)) && matches(e, a)?,
            Value::Type(t) => instance_of(e, t),
            _ => equals(a, e),
        })
    };
    match b {
        // A version in a range (spec 001 "SemVerRange"): a SemVer or a version string.
        Value::SemVerRange(range) => Ok(match a {
            Value::SemVer(v) => range.includes(v),
            Value::String(s) => semver::Version::parse(s.trim()).is_ok_and(|v| range.includes(&v)),
            _ => false,
        }),
        Value::String(haystack) => match a {
            Value::String(needle) => Ok(haystack.to_lowercase().contains(&needle.to_lowercase())),
            Value::Regexp(_) => matches(b, a),
            _ => Ok(false),
        },
        Value::Array(items) => {
            for e in items.iter() {
                if element_matches(e)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Value::Hash(map) => {
            for k in map.keys() {
                if element_matches(k)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        // Bytes: a Binary's or a string's as a run of them, or a number as one byte.
        Value::Binary(haystack) => Ok(match a {
            Value::Binary(needle) => contains_bytes(haystack, needle),
            Value::String(needle) => contains_bytes(haystack, needle.as_bytes()),
            Value::Integer(byte) => haystack.iter().any(|b| i64::from(*b) == *byte),
            _ => false,
        }),
        _ => Ok(false),
    }
}

/// `+ - * / % << >>` (spec 004 "Arithmetic Operators", "Concatenation/Merge",
/// "Removal", "Append"), in the order of Puppet's `calculate`: collections first (an
/// array or hash on the left), then both operands made numbers (the left one first),
/// then the operator of the left number (Ruby's: `/` and `%` round toward minus
/// infinity; a timespan or timestamp has operators of its own).
pub fn arithmetic(op: &str, a: &Value, b: &Value) -> R {
    match a {
        Value::Array(_) | Value::Hash(_) if matches!(op, "+" | "-" | "<<") => {
            return collection_arithmetic(op, a, b)
        }
        Value::Binary(x) if op == "+" => {
            return match b {
                Value::Binary(y) => Ok(Value::Binary(Arc::new([&x[..], &y[..]].concat()))),
                _ => Err(runtime_error(op, "Can only append Binary to a Binary")),
            }
        }
        Value::Uri(_) if op == "+" => {
            return match b {
                Value::Uri(_) | Value::String(_) => Err(unsupported("merging URIs")),
                _ => Err(runtime_error(
                    op,
                    "An URI can only be merged with an URI or String",
                )),
            }
        }
        _ => {}
    }
    let left = coerce_numeric(a)?;
    let right = coerce_numeric(b)?;
    // Puppet denies `%` on floats before anything else.
    if op == "%" {
        if let Value::Float(_) = left {
            return Err(not_applicable(op, &left));
        }
        if let Value::Float(_) = right {
            return Err(not_applicable_when(op, &left, &right));
        }
    }
    let (left, right) = if is_time(&right) && !is_time(&left) {
        // A number with a time value on its right: `+` and `* Timespan` let the time
        // value do the arithmetic, `- Timespan` makes the number a timespan; nothing
        // else is defined.
        match (op, &left, &right) {
            ("+", _, _) | ("*", _, Value::Timespan(_)) => (right, left),
            ("-", Value::SemVer(_), Value::Timespan(_)) => return Err(not_applicable(op, &left)),
            ("-", _, Value::Timespan(_)) => match seconds(&left) {
                Some(nanos) => (Value::Timespan(nanos), right),
                None => return Err(beyond_nanoseconds()),
            },
            _ => return Err(not_applicable_when(op, &left, &right)),
        }
    } else {
        (left, right)
    };
    match &left {
        Value::Integer(x) => integer_operator(op, *x, &left, &right),
        Value::Float(x) => float_operator(op, *x, &left, &right),
        Value::Timespan(x) => timespan_operator(op, *x, &right),
        Value::Timestamp(x) => timestamp_operator(op, *x, &right),
        // A version has no arithmetic but Ruby's `Numeric#%`, which refuses a zero
        // divisor before it finds no `/`.
        Value::SemVer(_) if op == "%" && matches!(right, Value::Integer(0)) => {
            Err(division_by_zero())
        }
        _ => Err(not_applicable(op, &left)),
    }
}

/// `+`, `-` and `<<` with an array or hash on the left.
fn collection_arithmetic(op: &str, a: &Value, b: &Value) -> R {
    match (op, a) {
        ("+", Value::Array(x)) => {
            let mut out = (**x).clone();
            match b {
                Value::Array(y) => out.extend(y.iter().cloned()),
                Value::Hash(h) => out.extend(
                    h.iter()
                        .map(|(k, v)| Value::array(vec![k.clone(), v.clone()])),
                ),
                other => out.push(other.clone()),
            }
            Ok(Value::Array(Arc::new(out)))
        }
        ("-", Value::Array(x)) => {
            let remove: Vec<Value> = match b {
                Value::Array(y) => y.to_vec(),
                other => vec![other.clone()],
            };
            Ok(Value::array(
                x.iter()
                    .filter(|e| !remove.iter().any(|r| equals(e, r)))
                    .cloned()
                    .collect(),
            ))
        }
        ("<<", Value::Array(x)) => {
            let mut out = (**x).clone();
            out.push(b.clone());
            Ok(Value::Array(Arc::new(out)))
        }
        ("+", Value::Hash(x)) => match b {
            Value::Hash(y) => {
                let mut out = (**x).clone();
                for (k, v) in y.iter() {
                    out.insert(k.clone(), v.clone());
                }
                Ok(Value::Hash(Arc::new(out)))
            }
            // A hash plus an array of keys and values, in pairs (spec 004 "Merge");
            // the errors are Ruby's `Hash[]`'s and Puppet's `concatenate`'s.
            // An array of arrays is a list of [key, value] pairs (Ruby's `Hash[y]`).
            Value::Array(y) if !y.is_empty() && y.iter().all(|e| matches!(e, Value::Array(_))) => {
                let mut out = (**x).clone();
                for pair in y.iter() {
                    let Value::Array(pair) = pair else {
                        unreachable!("all arrays")
                    };
                    match pair.as_slice() {
                        [k] => out.insert(k.clone(), Value::Undef),
                        [k, v] => out.insert(k.clone(), v.clone()),
                        _ => {
                            return Err(EvalError::Unsupported(
                                "a hash plus a pair of more than two elements".into(),
                            ))
                        }
                    };
                }
                Ok(Value::Hash(Arc::new(out)))
            }
            Value::Array(y) => {
                if y.len() % 2 != 0 {
                    return Err(runtime_error(op, "odd number of arguments for Hash"));
                }
                let mut out = (**x).clone();
                for pair in y.chunks(2) {
                    out.insert(pair[0].clone(), pair[1].clone());
                }
                Ok(Value::Hash(Arc::new(out)))
            }
            _ => Err(runtime_error(op, "Can only append Array or Hash to a Hash")),
        },
        ("-", Value::Hash(x)) => {
            let keys: Vec<Value> = match b {
                Value::Array(y) => y.to_vec(),
                Value::Hash(y) => y.keys().cloned().collect(),
                other => vec![other.clone()],
            };
            let mut out = (**x).clone();
            out.retain(|k, _| !keys.iter().any(|r| equals(k, r)));
            Ok(Value::Hash(Arc::new(out)))
        }
        _ => Err(not_applicable(op, a)),
    }
}

/// Puppet's `coerce_numeric`: a Ruby Numeric as it is (numbers, time values, and
/// versions, which Ruby also counts as numbers), a string holding a number as that
/// number (Puppet 7 warns), anything else NOT_NUMERIC.
pub(super) fn coerce_numeric(v: &Value) -> R {
    match v {
        Value::Integer(_)
        | Value::Float(_)
        | Value::Timespan(_)
        | Value::Timestamp(_)
        | Value::SemVer(_) => Ok(v.clone()),
        Value::String(_) => super::calls::to_numeric(v).map_err(|_| not_numeric(v)),
        _ => Err(not_numeric(v)),
    }
}

fn is_time(v: &Value) -> bool {
    matches!(v, Value::Timespan(_) | Value::Timestamp(_))
}

/// Ruby's integer operators, computed exactly and then held to Puppet's range.
fn integer_operator(op: &str, x: i64, left: &Value, right: &Value) -> R {
    let y = match right {
        Value::Integer(y) => *y,
        Value::Float(y) => match op {
            "<<" | ">>" => shift_count_of_float(op, *y)?,
            _ => return float_operator(op, x as f64, left, right),
        },
        // Integer#<< refuses a version; the other operators try to make it a Float.
        Value::SemVer(_) if matches!(op, "<<" | ">>") => return Err(not_applicable(op, left)),
        Value::SemVer(_) => {
            return Err(runtime_error(
                op,
                "can't convert SemanticPuppet::Version into Float",
            ))
        }
        _ => return Err(not_applicable_when(op, left, right)),
    };
    let (x, y) = (i128::from(x), i128::from(y));
    match op {
        "+" => in_range(op, x + y),
        "-" => in_range(op, x - y),
        "*" => in_range(op, x * y),
        "/" | "%" if y == 0 => Err(division_by_zero()),
        "/" => in_range(op, floor_div128(x, y)),
        "%" => in_range(op, x - y * floor_div128(x, y)),
        "<<" => shift_left(op, x, y),
        _ => shift_left(op, x, -y),
    }
}

/// Ruby's `Integer#<<` with a Float count uses its integer part.
fn shift_count_of_float(op: &str, f: f64) -> Result<i64, EvalError> {
    if f.is_finite() && f.abs() < 9.2e18 {
        Ok(f.trunc() as i64)
    } else {
        Err(unsupported(format!("a shift by {f} ({op})")))
    }
}

/// `x << n` (a right shift for a negative `n`), exact: a result outside Puppet's range
/// is NUMERIC_OVERFLOW with all its digits, as Ruby computed it.
fn shift_left(op: &str, x: i128, n: i128) -> R {
    if n <= 0 {
        // Arithmetic shift right: rounds toward minus infinity, as Ruby's.
        return in_range(op, x >> (-n).min(127));
    }
    if x == 0 {
        return Ok(Value::Integer(0));
    }
    if n <= 64 {
        return in_range(op, x << n);
    }
    // Far outside the range: the hex digits of |x| shifted, then zeros.
    if n > 1 << 16 {
        return Err(unsupported(format!("a shift by {n} bits ({op})")));
    }
    let digits = format!(
        "{:x}{}",
        x.unsigned_abs() << (n % 4),
        "0".repeat((n / 4) as usize)
    );
    Err(numeric_overflow(op, x < 0, &digits))
}

/// Ruby's float operators (an integer operand made a float); `%` is refused before.
fn float_operator(op: &str, x: f64, left: &Value, right: &Value) -> R {
    let y = match right {
        Value::Integer(y) => *y as f64,
        Value::Float(y) => *y,
        Value::SemVer(_) if !matches!(op, "<<" | ">>") => {
            return Err(runtime_error(
                op,
                "can't convert SemanticPuppet::Version into Float",
            ))
        }
        _ => return Err(not_applicable(op, left)),
    };
    match op {
        "+" => Ok(Value::Float(x + y)),
        "-" => Ok(Value::Float(x - y)),
        "*" => Ok(Value::Float(x * y)),
        // Ruby's float division: 0.0 / 0 is NaN, which Puppet gives back; a non-zero
        // number over zero is infinite, which Puppet refuses.
        "/" if (x / y).is_infinite() => Err(infinity(op)),
        "/" => Ok(Value::Float(x / y)),
        _ => Err(not_applicable(op, left)),
    }
}

/// A number of seconds as nanoseconds (numbers mean seconds next to time values).
fn seconds(v: &Value) -> Option<i128> {
    match v {
        Value::Integer(i) => Some(i128::from(*i) * NANOS_PER_SEC),
        Value::Float(f) if f.is_finite() && f.abs() < 1e15 => {
            Some((*f * NANOS_PER_SEC as f64) as i128)
        }
        _ => None,
    }
}

/// Ruby's time values hold any number of nanoseconds; pupcheck's hold 128 bits.
fn beyond_nanoseconds() -> EvalError {
    unsupported("a time value beyond what pupcheck represents")
}

/// Puppet's `Timespan` operators (`Puppet::Pops::Time::Timespan`): with a timestamp, a
/// timespan or seconds; its refusals are Ruby ArgumentErrors naming the other operand
/// by its Ruby class ("A Version cannot be added to a Timespan", and Puppet's own
/// "A Timestamp cannot be multiplied by", "using a a Timespan").
fn timespan_operator(op: &str, x: i128, right: &Value) -> R {
    use Value::{Timespan as Span, Timestamp as Stamp};
    let other = ruby_class_label(right);
    let secs = || seconds(right).ok_or_else(beyond_nanoseconds);
    match (op, right) {
        ("+", Stamp(y)) => Ok(Stamp(x + y)),
        ("+", Span(y)) => Ok(Span(x + y)),
        ("+", Value::Integer(_) | Value::Float(_)) => Ok(Span(x + secs()?)),
        ("+", _) => Err(runtime_error(
            op,
            format!("{} cannot be added to a Timespan", a_an_uc(&other)),
        )),
        ("-", Span(y)) => Ok(Span(x - y)),
        ("-", Value::Integer(_) | Value::Float(_)) => Ok(Span(x - secs()?)),
        ("-", _) => Err(runtime_error(
            op,
            format!("{} cannot be subtracted from a Timespan", a_an_uc(&other)),
        )),
        ("*", Value::Integer(k)) => x
            .checked_mul(i128::from(*k))
            .map(Span)
            .ok_or_else(beyond_nanoseconds),
        ("*", Value::Float(k)) => Ok(Span((x as f64 * k) as i128)),
        ("*", _) => Err(runtime_error(
            op,
            format!("A Timestamp cannot be multiplied by {}", a_an(&other)),
        )),
        // Timespan / Timespan is a Float: 0 / 0 is NaN, another number over 0 infinite.
        ("/", Span(0)) if x != 0 => Err(infinity(op)),
        ("/", Span(y)) => Ok(Value::Float(x as f64 / *y as f64)),
        ("/", Value::Integer(0)) => Err(division_by_zero()),
        ("/", Value::Integer(k)) => Ok(Span(floor_div128(x, i128::from(*k)))),
        ("/", Value::Float(k)) if *k == 0.0 => Err(division_by_zero()),
        ("/", Value::Float(k)) => Ok(Span((x as f64 / k) as i128)),
        ("/", _) => Err(runtime_error(
            op,
            format!("A Timespan cannot be divided by {}", a_an(&other)),
        )),
        ("%", Value::Integer(0)) => Err(division_by_zero()),
        ("%", Value::Integer(k)) => {
            // Whole seconds modulo k, with Ruby's sign (the divisor's).
            let (secs, k) = (floor_div128(x, NANOS_PER_SEC), i128::from(*k));
            Ok(Value::Integer((secs - k * floor_div128(secs, k)) as i64))
        }
        ("%", _) => Err(runtime_error(
            op,
            format!("Can not do modulus on a Timespan using a {}", a_an(&other)),
        )),
        _ => Err(not_applicable(op, &Span(x))),
    }
}

/// Puppet's `Timestamp` operators: moved by a timespan or seconds, and the timespan
/// between two timestamps; nothing else (Ruby has no other operator on it).
fn timestamp_operator(op: &str, x: i128, right: &Value) -> R {
    use Value::{Timespan as Span, Timestamp as Stamp};
    let other = ruby_class_label(right);
    let secs = || seconds(right).ok_or_else(beyond_nanoseconds);
    match (op, right) {
        ("+", Span(y)) => Ok(Stamp(x + y)),
        ("+", Value::Integer(_) | Value::Float(_)) => Ok(Stamp(x + secs()?)),
        ("+", _) => Err(runtime_error(
            op,
            format!("{} cannot be added to a Timestamp", a_an_uc(&other)),
        )),
        ("-", Stamp(y)) => Ok(Span(x - y)),
        ("-", Span(y)) => Ok(Stamp(x - y)),
        ("-", Value::Integer(_) | Value::Float(_)) => Ok(Stamp(x - secs()?)),
        ("-", _) => Err(runtime_error(
            op,
            format!("{} cannot be subtracted from a Timestamp", a_an_uc(&other)),
        )),
        _ => Err(not_applicable(op, &Stamp(x))),
    }
}

/// A time value or number as nanoseconds, for comparisons.
fn time_or_seconds(v: &Value) -> Option<i128> {
    match v {
        Value::Timespan(n) | Value::Timestamp(n) => Some(*n),
        other => seconds(other),
    }
}

/// Ruby's integer division: rounds toward minus infinity.
fn floor_div128(x: i128, y: i128) -> i128 {
    let q = x / y;
    if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::string(text)
    }

    #[test]
    fn equality_ignores_case_and_number_kinds() {
        // spec 004 "Comparison Operators": == is case-insensitive for strings, 1 == 1.0.
        assert!(equals(&s("Hello"), &s("hELLO")));
        assert!(equals(&Value::Integer(1), &Value::Float(1.0)));
        assert!(!equals(&s("1"), &Value::Integer(1)));
    }

    #[test]
    fn integer_division_and_modulo_round_down() {
        // spec 004 "Arithmetic Operators" (Ruby semantics in Puppet 7).
        assert_eq!(
            arithmetic("/", &Value::Integer(-7), &Value::Integer(2)).unwrap(),
            Value::Integer(-4)
        );
        assert_eq!(
            arithmetic("%", &Value::Integer(-7), &Value::Integer(2)).unwrap(),
            Value::Integer(1)
        );
        assert!(arithmetic("/", &Value::Integer(1), &Value::Integer(0)).is_err());
        assert!(arithmetic("+", &Value::Integer(i64::MAX), &Value::Integer(1)).is_err());
    }

    #[test]
    fn in_finds_substrings_elements_and_keys() {
        // spec 004 "in": substring ignoring case, array element, hash key.
        assert!(contains(&s("ELL"), &s("hello")).unwrap());
        assert!(contains(&s("b"), &Value::array(vec![s("a"), s("B")])).unwrap());
        assert!(contains(&s("k"), &Value::hash(vec![(s("k"), Value::Undef)])).unwrap());
    }

    #[test]
    fn truthiness_is_only_false_for_undef_and_false() {
        // spec 004 "if": '' is true since Puppet 4.
        assert!(truthy(&s("")));
        assert!(!truthy(&Value::Undef) && !truthy(&Value::Bool(false)));
    }

    fn message(r: R) -> String {
        match r {
            Err(EvalError::Failed(m) | EvalError::FailedAs(m, _)) => m,
            other => panic!("expected Puppet's error, got {other:?}"),
        }
    }

    #[test]
    fn overflow_names_the_exact_result_as_ruby_prints_it() {
        // Puppet computes with Ruby's big integers, then refuses what is out of range.
        assert_eq!(
            message(arithmetic("<<", &Value::Integer(1), &Value::Integer(100))),
            "A '<<' expression resulted in a value outside of Puppet Integer max range, got '+0x10000000000000000000000000'"
        );
        assert_eq!(
            message(arithmetic("*", &Value::Integer(-5), &Value::Integer(i64::MAX))),
            "A '*' expression resulted in a value outside of Puppet Integer min range, got '-0x27ffffffffffffffb'"
        );
        // -2**63 is in range.
        assert_eq!(
            arithmetic("<<", &Value::Integer(-1), &Value::Integer(63)).unwrap(),
            Value::Integer(i64::MIN)
        );
    }

    #[test]
    fn the_left_operand_is_made_a_number_first() {
        // Puppet's calculate: coerce_numeric(left), then coerce_numeric(right).
        assert_eq!(
            message(arithmetic("*", &Value::Undef, &s("0x1F"))),
            "The value '' cannot be converted to Numeric."
        );
        assert_eq!(
            message(arithmetic(
                "%",
                &s("10"),
                &Value::Timespan(60 * NANOS_PER_SEC)
            )),
            "Operator '%' is not applicable to an Integer when right side is a Timespan."
        );
    }

    #[test]
    fn comparisons_name_operands_by_their_labels() {
        let hash = Value::hash(vec![(s("a"), Value::Integer(1))]);
        let range = Value::Type(crate::types::t::integer_range(Some(1), Some(5)));
        assert_eq!(
            message(compare(">=", &hash, &range)),
            "Comparison of: Hash >= Integer[1, 5]-Type, is not possible. Caused by 'Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable'."
        );
    }

    #[test]
    fn timestamps_move_by_timespans_and_seconds() {
        // spec 001 "Timespan" / "Timestamp" arithmetic (Puppet 7).
        let t = Value::Timestamp(0);
        assert_eq!(
            arithmetic("+", &t, &Value::Integer(1)).unwrap(),
            Value::Timestamp(NANOS_PER_SEC)
        );
        assert_eq!(arithmetic("-", &t, &t).unwrap(), Value::Timespan(0));
        assert!(arithmetic("+", &t, &t).is_err());
    }
}
