//! Puppet's operators on known values (spec 004 "Expressions": arithmetic, comparison,
//! equality, matching, `in`), following Puppet 7 where the spec text differs.

use super::EvalError;
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

/// `<`, `<=`, `>`, `>=` (spec 004): numbers, strings (ignoring case), and types, where
/// `A < B` means B accepts every A and is not A.
pub fn compare(op: &str, a: &Value, b: &Value) -> R {
    use std::cmp::Ordering;
    let ordering = match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
        (Value::String(x), Value::String(y)) => x.to_lowercase().cmp(&y.to_lowercase()),
        (Value::SemVer(x), Value::SemVer(y)) => x.cmp(y),
        // A type compared with anything but a type is neither smaller nor larger; a
        // value compared with a type is an error (Puppet 7).
        (Value::Type(_), other) if !matches!(other, Value::Type(_)) => {
            return Ok(Value::Bool(false));
        }
        (other, Value::Type(_)) if !matches!(other, Value::Type(_)) => {
            return Err(failed(format!(
                "Comparison of: {a} {op} {b}, is not possible"
            )));
        }
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
        (Value::Timespan(_) | Value::Timestamp(_), _)
        | (_, Value::Timespan(_) | Value::Timestamp(_)) => {
            match (time_or_seconds(a), time_or_seconds(b)) {
                (Some(x), Some(y)) => x.cmp(&y),
                _ => {
                    return Err(failed(format!(
                        "Comparison of: {a} {op} {b}, is not possible"
                    )))
                }
            }
        }
        _ => match (number(a), number(b)) {
            (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
            _ => {
                return Err(failed(format!(
                    "Comparison of: {a} {op} {b}, is not possible"
                )))
            }
        },
    };
    Ok(Value::Bool(match op {
        "<" => ordering == Ordering::Less,
        "<=" => ordering != Ordering::Greater,
        ">" => ordering == Ordering::Greater,
        _ => ordering != Ordering::Less,
    }))
}

/// `=~` (spec 004 "Match Operators"): a string against a regexp or a pattern string,
/// or any value against a type.
pub fn matches(a: &Value, b: &Value) -> Result<bool, EvalError> {
    match (a, b) {
        (_, Value::Type(t)) => Ok(instance_of(a, t)),
        // A version (or a string that is one) against a range: whether it is in it.
        (_, Value::SemVerRange(range)) => Ok(match a {
            Value::SemVer(v) => range.includes(v),
            Value::String(s) => semver::Version::parse(s).is_ok_and(|v| range.includes(&v)),
            _ => false,
        }),
        (Value::String(s), Value::Regexp(r)) => r
            .try_match(s)
            .ok_or_else(|| unsupported("a regexp pupcheck cannot run")),
        (Value::String(s), Value::String(p)) => crate::types::model::Regex::new(p)
            .try_match(s)
            .ok_or_else(|| unsupported("a pattern string pupcheck cannot run")),
        (_, Value::Regexp(_) | Value::String(_)) => Err(failed(format!(
            "Left operand of =~ must be a String, got {a}"
        ))),
        _ => Err(failed(format!(
            "Right operand of =~ must be a Regexp, String or Type, got {b}"
        ))),
    }
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
        _ => Ok(false),
    }
}

fn overflow(op: &str) -> EvalError {
    failed(format!("integer overflow in {op}"))
}

/// `+ - * / %` on numbers (Ruby's integer semantics: `/` and `%` round toward minus
/// infinity), and `+`/`-` on collections (spec 004 "Arithmetic Operators",
/// "Concatenation/Merge", "Removal").
pub fn arithmetic(op: &str, a: &Value, b: &Value) -> R {
    if let Some(result) = time_arithmetic(op, a, b) {
        return result;
    }
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => {
            let (x, y) = (*x, *y);
            let r = match op {
                "+" => x.checked_add(y),
                "-" => x.checked_sub(y),
                "*" => x.checked_mul(y),
                "/" | "%" if y == 0 => return Err(failed("divided by 0")),
                "/" => x.checked_div(y).map(|_| floor_div(x, y)),
                _ => x.checked_rem(y).map(|_| x - y * floor_div(x, y)),
            };
            r.map(Value::Integer).ok_or_else(|| overflow(op))
        }
        (Value::Array(x), _) if op == "+" => {
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
        (Value::Array(x), _) if op == "-" => {
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
        (Value::Hash(x), Value::Hash(y)) if op == "+" => {
            let mut out = (**x).clone();
            for (k, v) in y.iter() {
                out.insert(k.clone(), v.clone());
            }
            Ok(Value::Hash(Arc::new(out)))
        }
        // A hash plus an array of keys and values, in pairs (spec 004 "Merge").
        (Value::Hash(x), Value::Array(y)) if op == "+" => {
            if y.len() % 2 != 0 {
                return Err(failed("odd number of arguments for Hash"));
            }
            let mut out = (**x).clone();
            for pair in y.chunks(2) {
                out.insert(pair[0].clone(), pair[1].clone());
            }
            Ok(Value::Hash(Arc::new(out)))
        }
        (Value::Hash(_), _) if op == "+" => Err(failed("Can only append Array or Hash to a Hash")),
        (Value::Hash(x), _) if op == "-" => {
            let keys: Vec<Value> = match b {
                Value::Array(y) => y.to_vec(),
                Value::Hash(y) => y.keys().cloned().collect(),
                other => vec![other.clone()],
            };
            let mut out = (**x).clone();
            out.retain(|k, _| !keys.iter().any(|r| equals(k, r)));
            Ok(Value::Hash(Arc::new(out)))
        }
        // Numeric strings take part as numbers ('1' + 2 is 3; Puppet 7).
        (Value::String(_), _) | (_, Value::String(_)) => {
            let a = numeric_operand(a).ok_or_else(|| not_numeric(a))?;
            let b = numeric_operand(b).ok_or_else(|| not_numeric(b))?;
            arithmetic(op, &a, &b)
        }
        _ => match (number(a), number(b)) {
            (Some(x), Some(y)) => {
                if op == "%" {
                    return Err(failed("The % operator is only defined for Integers"));
                }
                if op == "/" && y == 0.0 {
                    return Err(failed("divided by 0"));
                }
                let r = match op {
                    "+" => x + y,
                    "-" => x - y,
                    "*" => x * y,
                    _ => x / y,
                };
                Ok(Value::Float(r))
            }
            // Every other pairing is an error in Puppet 7 (the expressions table covers
            // booleans, undef, collections, types, regexps and versions as operands).
            _ => Err(failed(format!(
                "Operator '{op}' is not applicable to {a} and {b}"
            ))),
        },
    }
}

/// A number, or a string holding one (Puppet 7 coerces those in arithmetic, with a
/// warning); anything else is not a numeric operand.
fn numeric_operand(v: &Value) -> Option<Value> {
    match v {
        Value::Integer(_) | Value::Float(_) => Some(v.clone()),
        Value::String(_) => super::calls::to_numeric(v).ok(),
        _ => None,
    }
}

fn not_numeric(v: &Value) -> EvalError {
    failed(format!("The value {v} cannot be converted to Numeric."))
}

/// A number as a count of nanoseconds (numbers mean seconds next to time values).
fn seconds(v: &Value) -> Option<i128> {
    match v {
        Value::Integer(i) => Some(i128::from(*i) * NANOS_PER_SEC),
        Value::Float(f) if f.is_finite() && f.abs() < 1e15 => {
            Some((*f * NANOS_PER_SEC as f64) as i128)
        }
        _ => None,
    }
}

/// Timespans and timestamps in arithmetic (Puppet 7): a timestamp moves by a timespan
/// or by seconds, two timestamps differ by a timespan, a timespan scales by a number.
/// `None` when neither operand is a time value.
fn time_arithmetic(op: &str, a: &Value, b: &Value) -> Option<R> {
    use Value::{Timespan as Span, Timestamp as Stamp};
    let is_time = |v: &Value| matches!(v, Span(_) | Stamp(_));
    if !(is_time(a) || (is_time(b) && numeric_operand(a).is_some())) {
        return None;
    }
    // Numeric strings count as their numbers here too ('10' + Timespan(60)).
    let (a, b) = (
        &numeric_operand(a).unwrap_or_else(|| a.clone()),
        &numeric_operand(b).unwrap_or_else(|| b.clone()),
    );
    let not_applicable = || {
        Err(failed(format!(
            "Operator '{op}' is not applicable to these operands ({a} and {b})"
        )))
    };
    let result = match (op, a, b) {
        ("+", Stamp(x), Span(y)) | ("+", Span(y), Stamp(x)) => Ok(Stamp(x + y)),
        ("+", Stamp(x), n) | ("+", n, Stamp(x)) => match seconds(n) {
            Some(y) => Ok(Stamp(x + y)),
            None => not_applicable(),
        },
        ("+", Span(x), Span(y)) => Ok(Span(x + y)),
        ("+", Span(x), n) | ("+", n, Span(x)) => match seconds(n) {
            Some(y) => Ok(Span(x + y)),
            None => not_applicable(),
        },
        ("-", Stamp(x), Stamp(y)) => Ok(Span(x - y)),
        ("-", Stamp(x), Span(y)) => Ok(Stamp(x - y)),
        ("-", Stamp(x), n) => match seconds(n) {
            Some(y) => Ok(Stamp(x - y)),
            None => not_applicable(),
        },
        ("-", Span(x), Span(y)) => Ok(Span(x - y)),
        ("-", Span(x), n) if seconds(n).is_some() => Ok(Span(x - seconds(n)?)),
        ("-", n, Span(y)) if seconds(n).is_some() => Ok(Span(seconds(n)? - y)),
        ("*", Span(x), Value::Integer(k)) | ("*", Value::Integer(k), Span(x)) => {
            Ok(Span(x * i128::from(*k)))
        }
        ("*", Span(x), Value::Float(k)) | ("*", Value::Float(k), Span(x)) => {
            Ok(Span((*x as f64 * k) as i128))
        }
        ("/", Span(x), Span(y)) if *y != 0 => Ok(Value::Float(*x as f64 / *y as f64)),
        ("/", Span(x), Value::Integer(k)) if *k != 0 => Ok(Span(floor_div128(*x, i128::from(*k)))),
        ("/", Span(x), Value::Float(k)) if *k != 0.0 => Ok(Span((*x as f64 / k) as i128)),
        ("%", Span(x), Value::Integer(k)) if *k != 0 => {
            // Whole seconds modulo k, with Ruby's sign (the divisor's).
            let (secs, k) = (floor_div128(*x, NANOS_PER_SEC), i128::from(*k));
            Ok(Value::Integer((secs - k * floor_div128(secs, k)) as i64))
        }
        _ => not_applicable(),
    };
    Some(result)
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

fn floor_div(x: i64, y: i64) -> i64 {
    let q = x / y;
    if (x % y != 0) && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

/// `<<`: append to an array; `<<` and `>>` shift integers (numeric strings and floats
/// count as their integer part, as Puppet 7 coerces them).
pub fn shift(op: &str, a: &Value, b: &Value) -> R {
    if let ("<<", Value::Array(x)) = (op, a) {
        let mut out = (**x).clone();
        out.push(b.clone());
        return Ok(Value::Array(Arc::new(out)));
    }
    let int = |v: &Value| match numeric_operand(v) {
        Some(Value::Integer(i)) => Some(i),
        Some(Value::Float(f)) if f.is_finite() && f.abs() < 9.2e18 => Some(f.trunc() as i64),
        _ => None,
    };
    // The left operand must be an integer; the right may be a float (truncated).
    let left_int = matches!(numeric_operand(a), Some(Value::Integer(_)));
    let (Some(x), Some(y), true) = (int(a), int(b), left_int) else {
        return Err(failed(format!(
            "Operator '{op}' is not applicable to {a} and {b}"
        )));
    };
    let left = if op == "<<" {
        y
    } else {
        y.checked_neg().ok_or_else(|| overflow(op))?
    };
    let r = if left >= 0 {
        if left > 62 && x != 0 {
            None
        } else {
            x.checked_mul(1i64.checked_shl(left as u32).unwrap_or(0))
                .filter(|_| left < 63 || x == 0)
        }
    } else {
        Some(x >> (-left).min(63))
    };
    r.map(Value::Integer).ok_or_else(|| overflow(op))
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
