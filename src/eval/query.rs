//! Answers puppet-oracle's questions (`pupcheck types --batch` and the golden tables):
//! `{"expr": ...}` cases through the evaluator, every other case through the type
//! system's own answers.

use super::{AbstractValue, EvalError, Evaluator};
use crate::ast::ExprKind;
use crate::source::SourceKind;
use crate::types::from_ast::type_expr_from_ast;
use crate::types::query::Parsers;
use crate::types::resolve::AliasTable;
use crate::types::value::Value;
use crate::types::{infer_detailed, infer_generalized};
use serde_json::{Map, Value as Json};

/// Puppet's `String(x)` form: strings as they are, `undef` as the empty string, other
/// values as Puppet prints them.
pub fn string_form(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string(),
        Value::Undef => String::new(),
        // `String(SemVerRange('~> 1.2'))` is the text it was made from; a time value
        // is its text too (`0-01:00:00.0`), not `Timespan('...')`.
        Value::SemVerRange(_) | Value::Timespan(_) | Value::Timestamp(_) => {
            crate::types::labels::ruby_to_s(v)
        }
        _ => v.to_string(),
    }
}

/// Prefix of the error of a case the evaluator cannot answer yet (the golden tests
/// count these instead of comparing them).
pub const NOT_ANSWERED: &str = "not answered without the evaluator";

/// One oracle case, answered with the oracle's fields.
pub fn answer(case: &Json) -> Json {
    let Some(code) = case.get("expr").and_then(Json::as_str) else {
        let answered = crate::types::query::answer(case, &Parsers::syntax());
        return match answered.get("error") {
            // A value built by a call (`Sensitive('x')`, `SemVer('1.0.0')`) is no type
            // specification: the evaluator builds it.
            Some(_) => instance_by_evaluation(case).unwrap_or(answered),
            None => answered,
        };
    };
    let mut out: Map<String, Json> = case.as_object().cloned().unwrap_or_default();
    let prelude = case.get("prelude").and_then(Json::as_str).unwrap_or("");
    match evaluate(prelude, code) {
        Ok(value) => {
            out.insert("value".into(), Json::String(value.to_string()));
            out.insert("string".into(), Json::String(string_form(&value)));
            out.insert(
                "type".into(),
                Json::String(infer_detailed(&value).to_string()),
            );
            out.insert(
                "generalized".into(),
                Json::String(infer_generalized(&value).to_string()),
            );
        }
        Err(
            EvalError::Failed(message)
            | EvalError::FailedAs(message, _)
            | EvalError::FailedAt(super::Failure { message, .. }),
        ) => {
            out.insert("error".into(), Json::String(message));
        }
        Err(EvalError::Unsupported(what)) => {
            out.insert(
                "error".into(),
                Json::String(format!("{NOT_ANSWERED}: {what}")),
            );
        }
    }
    Json::Object(out)
}

/// `{"value": V, "type": T}` answered by evaluating `V` and `T` (after the prelude);
/// `None` when either is not known.
fn instance_by_evaluation(case: &Json) -> Option<Json> {
    let value_code = case.get("value").and_then(Json::as_str)?;
    let type_code = case.get("type").and_then(Json::as_str)?;
    let prelude = case.get("prelude").and_then(Json::as_str).unwrap_or("");
    let value = evaluate(prelude, value_code).ok()?;
    let Value::Type(ty) = evaluate(prelude, type_code).ok()? else {
        return None;
    };
    let mut out: Map<String, Json> = case.as_object().cloned().unwrap_or_default();
    out.insert(
        "instance".into(),
        Json::Bool(crate::types::instance_of(&value, &ty)),
    );
    Some(Json::Object(out))
}

/// Evaluates the prelude, then the code, in one scope: the value of the code's last
/// statement, which must be known.
fn evaluate(prelude: &str, code: &str) -> Result<Value, EvalError> {
    match evaluate_parts(prelude, code).map_err(|stopped| stopped.error)? {
        AbstractValue::Known(v) => Ok(v),
        AbstractValue::Inferred(t) => Err(EvalError::Unsupported(format!(
            "a value known only by its type ({t})"
        ))),
    }
}

/// The two texts `evaluate_parts` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Prelude,
    Code,
}

/// Where an evaluation stopped and why: a syntax error or an evaluation error is
/// `FailedAt` a span of that part's text.
#[derive(Debug)]
pub struct Stopped {
    pub part: Part,
    pub error: EvalError,
}

/// Evaluates the prelude, then the code, in one scope (`pupcheck eval`, the oracle's
/// cases): what the code's last statement evaluates to. Type aliases anywhere in either
/// are known from the start, as Puppet loads them before evaluating; the code is all
/// there is (a variable nothing sets is `undef`).
pub fn evaluate_parts(prelude: &str, code: &str) -> Result<AbstractValue, Stopped> {
    let mut programs = Vec::new();
    for (part, text) in [(Part::Prelude, prelude), (Part::Code, code)] {
        let parsed = crate::syntax::parse_text(text, SourceKind::Manifest);
        if let Some(d) = parsed.diagnostics.first() {
            let failure = super::Failure {
                message: d.message.clone(),
                span: d.span,
                kind: super::FailureKind::Other,
            };
            return Err(Stopped {
                part,
                error: EvalError::FailedAt(failure),
            });
        }
        programs.push(parsed.program);
    }
    let mut aliases = AliasTable::new();
    for statement in programs.iter().flat_map(|p| &p.body) {
        if let ExprKind::TypeAlias(alias) = &statement.kind {
            aliases.insert(&alias.name.name, type_expr_from_ast(&alias.type_expr));
        }
    }
    let mut evaluator = Evaluator::new(&aliases).closed_world();
    for program in &programs {
        evaluator.define_classes(program, "");
    }
    let stopped_in = |part| move |error| Stopped { part, error };
    evaluator
        .eval_statements(&programs[0].body)
        .map_err(stopped_in(Part::Prelude))?;
    evaluator
        .eval_statements(&programs[1].body)
        .map_err(stopped_in(Part::Code))
}
