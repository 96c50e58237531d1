//! Operators on values known only by their types: what the result is known to be, and
//! the errors Puppet raises whatever the values are. The concrete operators
//! (`operators`) answer when both operands are known; these answer for the rest, and
//! say `Unsupported` wherever the result or the error depends on values not known.
//! (The Expressions document of the specification, "Arithmetic Operators", "Comparison
//! Operators", "Match Operators".)

use super::{AbstractValue, EvalError, R};
use crate::ast::BinaryOp;
use crate::types::{t, Kind, Type, Value};

/// How a number operand is known: an integer, a float, or either.
#[derive(Clone, Copy, PartialEq)]
enum Number {
    Integer,
    Float,
    Either,
}

impl Number {
    /// The numbers a type holds, when it holds nothing else (not even `undef`).
    fn of_type(ty: &Type) -> Option<Number> {
        match ty.kind() {
            Kind::Integer(_) => Some(Number::Integer),
            Kind::Float(_) => Some(Number::Float),
            Kind::Numeric => Some(Number::Either),
            Kind::NotUndef(Some(inner)) => Number::of_type(inner),
            Kind::Alias(alias) => Number::of_type(&alias.resolved()),
            Kind::Variant(members) => {
                let mut kinds = members.iter().map(Number::of_type);
                let first = kinds.next()??;
                kinds.try_fold(first, |acc, k| {
                    let k = k?;
                    Some(if k == acc { acc } else { Number::Either })
                })
            }
            _ => None,
        }
    }

    fn of(value: &AbstractValue) -> Option<Number> {
        match value {
            AbstractValue::Known(Value::Integer(_)) => Some(Number::Integer),
            AbstractValue::Known(Value::Float(_)) => Some(Number::Float),
            AbstractValue::Known(_) => None,
            AbstractValue::Inferred(ty) => Number::of_type(ty),
        }
    }

    /// An arithmetic operand: numbers, and strings that hold one (Puppet turns them
    /// into their number).
    fn of_operand(value: &AbstractValue) -> Option<Number> {
        match value {
            AbstractValue::Known(v @ Value::String(_)) => {
                match super::calls::to_numeric(v).ok()? {
                    Value::Integer(_) => Some(Number::Integer),
                    Value::Float(_) => Some(Number::Float),
                    _ => None,
                }
            }
            // An operand that may be undef (a fact a node may lack): undef fails the
            // operator on every node ("The value '' cannot be converted to Numeric"),
            // so the result, where there is one, is the number's.
            AbstractValue::Inferred(ty) => match ty.kind() {
                Kind::Optional(Some(inner)) => Number::of_type(inner),
                _ => Number::of_type(ty),
            },
            other => Number::of(other),
        }
    }

    fn ty(self) -> Type {
        match self {
            Number::Integer => t::integer(),
            Number::Float => t::float(),
            Number::Either => t::numeric(),
        }
    }
}

/// A binary operator with at least one operand known only by its type (`and` and `or`
/// are the evaluator's: their right operand is not always evaluated).
pub(super) fn binary(
    op: BinaryOp,
    left: &AbstractValue,
    right: &AbstractValue,
) -> R<AbstractValue> {
    let boolean = || Ok(AbstractValue::Inferred(t::boolean()));
    match op {
        // Equality never fails.
        BinaryOp::Equal | BinaryOp::NotEqual => boolean(),
        BinaryOp::Less | BinaryOp::LessEqual | BinaryOp::Greater | BinaryOp::GreaterEqual => {
            match (Number::of(left), Number::of(right)) {
                (Some(_), Some(_)) => boolean(),
                _ => unknown("a comparison of operands known only by their types"),
            }
        }
        // A value against a type is an instance check; it sets no match variables.
        BinaryOp::Match | BinaryOp::NotMatch => match right {
            AbstractValue::Known(Value::Type(_)) => boolean(),
            _ => unknown("a match of operands known only by their types"),
        },
        BinaryOp::Add
        | BinaryOp::Subtract
        | BinaryOp::Multiply
        | BinaryOp::Divide
        | BinaryOp::Modulo => arithmetic(op, left, right),
        _ => unknown("this operator on operands known only by their types"),
    }
}

/// `+ - * / %` where an operand is known only by its type. Puppet turns the left
/// operand into a number, then the right one (unless the left is a collection, which
/// `+` and `-` concatenate or remove from): the first that is not a number (a string
/// that holds none) fails, whatever the other holds.
fn arithmetic(op: BinaryOp, left: &AbstractValue, right: &AbstractValue) -> R<AbstractValue> {
    if let AbstractValue::Known(value) = left {
        let collection = matches!(value, Value::Array(_) | Value::Hash(_))
            && matches!(op, BinaryOp::Add | BinaryOp::Subtract);
        if collection || matches!(value, Value::Uri(_) | Value::Binary(_)) {
            return unknown("a collection operator with an operand known only by its type");
        }
        if let Some(failure) = not_numeric(value) {
            return Err(failure);
        }
    }
    // One of several strings (paths that meet): when none is a number, every path
    // fails; Puppet's message names the value of the path taken, here the first.
    if let Some(failure) = enum_members(left).and_then(|members| {
        let failures: Option<Vec<EvalError>> = members.iter().map(not_numeric).collect();
        failures?.into_iter().next()
    }) {
        return Err(failure);
    }
    let (Some(l), right_number) = (Number::of_operand(left), Number::of_operand(right)) else {
        return unknown("arithmetic on operands known only by their types");
    };
    let r = match (right_number, right) {
        (Some(r), _) => r,
        (None, AbstractValue::Known(value)) => {
            return Err(not_numeric(value)
                .unwrap_or_else(|| EvalError::Unsupported("arithmetic on this operand".into())))
        }
        (None, AbstractValue::Inferred(_)) => {
            return unknown("arithmetic on operands known only by their types")
        }
    };
    // An integer divided by zero fails whatever the integer is.
    if matches!(op, BinaryOp::Divide | BinaryOp::Modulo)
        && l == Number::Integer
        && matches!(right, AbstractValue::Known(Value::Integer(0)))
    {
        return Err(super::operators::division_by_zero());
    }
    // `%` on a float is an error whose wording depends on the side; leave it to the
    // values.
    if op == BinaryOp::Modulo && (l != Number::Integer || r != Number::Integer) {
        return unknown("% with an operand that may be a float");
    }
    let result = match (l, r) {
        (Number::Integer, Number::Integer) => Number::Integer,
        (Number::Float, _) | (_, Number::Float) => Number::Float,
        _ => Number::Either,
    };
    Ok(AbstractValue::Inferred(result.ty()))
}

/// The strings a value known by an `Enum` (case-sensitive) is one of.
pub(super) fn enum_members(value: &AbstractValue) -> Option<Vec<Value>> {
    let AbstractValue::Inferred(ty) = value else {
        return None;
    };
    match ty.kind() {
        Kind::Enum {
            values,
            case_insensitive: false,
        } => Some(values.iter().map(|s| Value::String(s.clone())).collect()),
        _ => None,
    }
}

/// The error of a known operand Puppet cannot turn into a number (Puppet's
/// `coerce_numeric`, in its words).
fn not_numeric(value: &Value) -> Option<EvalError> {
    super::operators::coerce_numeric(value).err()
}

/// A value standing for every value of `ty` where what an operator or an access does
/// depends only on the kind of value (an integer, a string, an array...): the failures
/// of comparisons, matches and accesses, whose messages name the kind. `None` for a
/// type that holds values of several kinds, or kinds whose failures depend on more.
pub(super) fn sample(ty: &Type) -> Option<Value> {
    Some(match ty.kind() {
        Kind::Integer(_) => Value::Integer(0),
        Kind::Float(_) => Value::Float(0.0),
        Kind::Boolean(known) => Value::Bool(known.unwrap_or(true)),
        // (A variable narrowed to undef is known by its type so that nothing it would
        // raise is judged: a branch an earlier failing test guards may be unreachable.)
        Kind::String(_) | Kind::Enum { .. } | Kind::Pattern(_) => Value::string("a"),
        Kind::Array { .. } | Kind::Tuple { .. } => Value::array(Vec::new()),
        Kind::Hash { .. } | Kind::Struct(_) => Value::Hash(Default::default()),
        Kind::NotUndef(Some(inner)) => return sample(inner),
        Kind::Alias(alias) => return sample(&alias.resolved()),
        _ => return None,
    })
}

/// The samples of a value's kinds: the value, the sample of its type, or for an
/// `Optional[T]` the sample of `T` and undef.
pub(super) fn samples_of(value: &AbstractValue) -> Option<Vec<Value>> {
    if let AbstractValue::Inferred(ty) = value {
        if let Kind::Optional(Some(inner)) = ty.kind() {
            return Some(vec![sample(inner)?, Value::Undef]);
        }
    }
    Some(vec![sample_of(value)?])
}

/// A value, or the sample of its type (`sample`).
pub(super) fn sample_of(value: &AbstractValue) -> Option<Value> {
    match value {
        AbstractValue::Known(v) => Some(v.clone()),
        AbstractValue::Inferred(ty) => sample(ty),
    }
}

fn unknown(what: &str) -> R<AbstractValue> {
    Err(EvalError::Unsupported(what.into()))
}
