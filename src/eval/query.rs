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
        // `String(SemVerRange('~> 1.2'))` is the text it was made from.
        Value::SemVerRange(r) => r.to_string(),
        _ => v.to_string(),
    }
}

/// Prefix of the error of a case the evaluator cannot answer yet (the golden tests
/// count these instead of comparing them).
pub const NOT_ANSWERED: &str = "not answered without the evaluator";

/// One oracle case, answered with the oracle's fields.
pub fn answer(case: &Json) -> Json {
    let Some(code) = case.get("expr").and_then(Json::as_str) else {
        return crate::types::query::answer(case, &Parsers::syntax());
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
        Err(EvalError::Failed(message) | EvalError::FailedAt(super::Failure { message, .. })) => {
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

/// Evaluates the prelude, then the code, in one scope: the value of the code's last
/// statement. Type aliases anywhere in either are known from the start, as Puppet
/// loads them before evaluating.
fn evaluate(prelude: &str, code: &str) -> Result<Value, EvalError> {
    let mut programs = Vec::new();
    for text in [prelude, code] {
        let parsed = crate::syntax::parse_text(text, SourceKind::Manifest);
        if let Some(d) = parsed.diagnostics.first() {
            return Err(EvalError::Failed(d.message.clone()));
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
    evaluator.eval_statements(&programs[0].body)?;
    match evaluator.eval_statements(&programs[1].body)? {
        AbstractValue::Known(v) => Ok(v),
        AbstractValue::Inferred(t) => Err(EvalError::Unsupported(format!(
            "a value known only by its type ({t})"
        ))),
    }
}
