//! What the evaluation knows of the expression at a place, in words: the answer of
//! `pupcheck explain FILE:LINE:COL` and of an editor's hover (`server`).

use super::FileView;
use crate::ast::{Expr, ExprKind};
use crate::eval::{AbstractValue, EvalError, Failure};
use crate::source::Span;
use crate::types::{infer_detailed, Kind};

/// One answer about a value: what it is, or the error Puppet raises computing it.
#[derive(Debug, PartialEq)]
pub enum Answer {
    /// The value, and the type Puppet's `type()` gives it.
    Value(String, String),
    /// Not known, but an instance of this type.
    AnyOf(String),
    /// Not known at all.
    Unknown,
    /// Puppet fails with this message, there.
    Error(Failure),
    /// pupcheck does not model what the value depends on.
    NotModelled(String),
}

impl Answer {
    pub fn of(result: Result<AbstractValue, EvalError>) -> Answer {
        match result {
            Ok(AbstractValue::Known(v)) => {
                Answer::Value(v.to_string(), infer_detailed(&v).to_string())
            }
            Ok(AbstractValue::Inferred(t)) if matches!(t.kind(), Kind::Any) => Answer::Unknown,
            Ok(AbstractValue::Inferred(t)) => Answer::AnyOf(t.to_string()),
            Err(EvalError::FailedAt(failure)) => Answer::Error(failure),
            // Not located: at the expression asked about.
            Err(EvalError::Failed(message)) => Answer::Error(Failure {
                message,
                span: Span::new(0, 0),
                kind: crate::eval::FailureKind::Other,
            }),
            Err(EvalError::FailedAs(message, kind)) => Answer::Error(Failure {
                message,
                span: Span::new(0, 0),
                kind,
            }),
            Err(EvalError::Unsupported(what)) => Answer::NotModelled(what),
        }
    }

    pub fn text(&self) -> String {
        match self {
            Answer::Value(value, ty) => format!("{value}\ntype: {ty}"),
            Answer::AnyOf(ty) => format!("any value of type {ty} (not known from the code)"),
            Answer::Unknown => "not known from the code (any value)".to_string(),
            Answer::Error(failure) => format!("error: {}", failure.message),
            Answer::NotModelled(what) => {
                format!("not known: pupcheck does not evaluate {what} yet")
            }
        }
    }

    pub fn json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Answer::Value(value, ty) => json!({ "value": value, "type": ty }),
            Answer::AnyOf(ty) => json!({ "type": ty }),
            Answer::Unknown => json!({ "type": "Any" }),
            Answer::Error(failure) => json!({ "error": failure.message }),
            Answer::NotModelled(what) => json!({ "not_modelled": what }),
        }
    }
}

/// The expression at `offset` and what the evaluation of the file's bodies holds for it
/// each time it reaches it, each different answer once. Empty answers: the walk does not
/// reach it (code Puppet does not run, or after something not modelled). `None`: no
/// expression there.
pub fn answers_at(
    ctx: &FileView,
    offset: u32,
    resume: Option<&super::ResumePoints>,
) -> Option<(Span, Vec<Answer>)> {
    let expr = innermost_at(ctx.exprs, offset)?;
    let answers = answers(super::FileInference::explain(ctx, expr, resume));
    Some((expr.span, answers))
}

/// The answers for each of `exprs` (by address), from one walk of the bodies holding
/// them.
pub fn answers_of(
    ctx: &FileView,
    exprs: &[&Expr],
    resume: Option<&super::ResumePoints>,
) -> std::collections::HashMap<usize, Vec<Answer>> {
    let mut results: std::collections::HashMap<usize, Vec<_>> = Default::default();
    for (at, result) in super::FileInference::explain_each(ctx, exprs, resume) {
        results.entry(at).or_default().push(result);
    }
    results
        .into_iter()
        .map(|(at, results)| (at, answers(results)))
        .collect()
}

/// Each distinct answer once; the values, when some are known, without the weaker
/// answers.
fn answers(results: Vec<Result<AbstractValue, EvalError>>) -> Vec<Answer> {
    let mut answers: Vec<Answer> = Vec::new();
    for answer in results.into_iter().map(Answer::of) {
        if !answers.contains(&answer) {
            answers.push(answer);
        }
    }
    // A lambda is walked once with its parameters known by type, and called again with
    // each element a known iteration gives: the values, when known, say more.
    if answers.iter().any(|a| matches!(a, Answer::Value(..))) {
        answers.retain(|a| !matches!(a, Answer::AnyOf(_) | Answer::Unknown));
    }
    answers
}

/// The smallest expression whose span holds `offset` (the deepest, among equals); for
/// the variable an assignment sets, the assignment (whose value is the variable's).
pub fn innermost_at<'e>(exprs: &[&'e Expr], offset: u32) -> Option<&'e Expr> {
    let innermost = exprs
        .iter()
        .copied()
        .filter(|e| e.span.start <= offset && offset < e.span.end.max(e.span.start + 1))
        .min_by_key(|e| e.span.end - e.span.start)?;
    // The left side of an assignment is the assignment; a called function's name (never
    // evaluated on its own) is its call.
    let enclosing = exprs.iter().copied().find(|e| match &e.kind {
        ExprKind::Assignment { left, .. } => std::ptr::eq(&**left, innermost),
        ExprKind::Call(call) => std::ptr::eq(&call.function, innermost),
        _ => false,
    });
    Some(enclosing.unwrap_or(innermost))
}

/// An expression's text on one line, shortened (what an answer is about).
pub fn one_line(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 60 {
        format!("{}...", flat.chars().take(57).collect::<String>())
    } else {
        flat
    }
}
