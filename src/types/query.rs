//! Answering one oracle-format JSON case (the format of `scripts/oracle/puppet_oracle.rb`,
//! which asks Puppet itself), for `pupcheck types` and the golden tests.
//!
//! * `{"a": T1, "b": T2}` -> `a_accepts_b`, `b_accepts_a`, `common`, `a_norm`, `b_norm`
//! * `{"value": V, "type": T}` -> `instance`
//! * `{"expr": V}` where V is a literal value or type -> `value`, `string`, `type`,
//!   `generalized` (other expressions need the evaluator and give an `error`)
//! * optional `prelude`: `type X = ...` aliases; other fields are echoed; failures
//!   give `error`.
//!
//! Parsing is passed in (see [`Parsers`]) so this module does not depend on the
//! syntax layer; [`Parsers::syntax`] gives the real one.

use serde_json::{Map, Value as Json};

use super::expr::TypeExpr;
use super::resolve::{AliasTable, Resolver};
use super::value::Value;

/// Parses a type or value expression from text.
pub type ParseExprFn<'a> = &'a dyn Fn(&str) -> Result<TypeExpr, String>;
/// Parses a prelude of alias definitions into (name, body) pairs.
pub type ParsePreludeFn<'a> = &'a dyn Fn(&str) -> Result<Vec<(String, TypeExpr)>, String>;

pub struct Parsers<'a> {
    pub expr: ParseExprFn<'a>,
    pub prelude: ParsePreludeFn<'a>,
}

impl Parsers<'static> {
    /// The parsers backed by the project's grammar (`syntax::parse_expression`).
    pub fn syntax() -> Parsers<'static> {
        Parsers {
            expr: &super::from_ast::parse_type_expr,
            prelude: &super::from_ast::parse_aliases,
        }
    }
}

/// Answers one case; the result holds the input fields plus the answer fields.
pub fn answer(case: &Json, parsers: &Parsers) -> Json {
    let mut out: Map<String, Json> = match case {
        Json::Object(m) => m.clone(),
        _ => {
            let mut m = Map::new();
            m.insert(
                "error".into(),
                Json::String("a case must be a JSON object".into()),
            );
            return Json::Object(m);
        }
    };
    super::accepts::take_overflow();
    if let Err(e) = answer_into(case, parsers, &mut out) {
        out.insert("error".into(), Json::String(e));
    }
    if super::accepts::take_overflow() {
        // Puppet fails the same way on these self-recursive aliases.
        out.retain(|k, _| case.get(k).is_some());
        out.insert("error".into(), Json::String("stack level too deep".into()));
    }
    Json::Object(out)
}

/// Answers every line of a JSON-lines text (blank lines and `//` comments skipped).
pub fn answer_lines(text: &str, parsers: &Parsers) -> Vec<Json> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
        .map(|l| match serde_json::from_str::<Json>(l) {
            Ok(case) => answer(&case, parsers),
            Err(e) => serde_json::json!({ "error": format!("invalid JSON: {e}") }),
        })
        .collect()
}

fn field<'j>(case: &'j Json, name: &str) -> Option<&'j str> {
    case.get(name).and_then(Json::as_str)
}

fn answer_into(case: &Json, parsers: &Parsers, out: &mut Map<String, Json>) -> Result<(), String> {
    let needs_evaluator = |e: String| format!("not answered without the evaluator: {e}");
    let is_expr = field(case, "a").is_none()
        && field(case, "value").is_none()
        && field(case, "expr").is_some();
    let mut table = AliasTable::new();
    if let Some(p) = field(case, "prelude") {
        let aliases =
            (parsers.prelude)(p).map_err(|e| if is_expr { needs_evaluator(e) } else { e })?;
        for (name, body) in aliases {
            table.insert(&name, body);
        }
    }
    let mut r = Resolver::new(&table);
    let parse_type = |r: &mut Resolver, text: &str| -> Result<super::Type, String> {
        let e = (parsers.expr)(text)?;
        r.resolve(&e).map_err(|e| e.message)
    };
    if let (Some(a), Some(b)) = (field(case, "a"), field(case, "b")) {
        let ta = parse_type(&mut r, a)?;
        let tb = parse_type(&mut r, b)?;
        out.insert("a_accepts_b".into(), Json::Bool(super::accepts(&ta, &tb)));
        out.insert("b_accepts_a".into(), Json::Bool(super::accepts(&tb, &ta)));
        out.insert(
            "common".into(),
            Json::String(super::common(&ta, &tb).to_string()),
        );
        out.insert(
            "a_norm".into(),
            Json::String(super::normalize(&ta).to_string()),
        );
        out.insert(
            "b_norm".into(),
            Json::String(super::normalize(&tb).to_string()),
        );
        return Ok(());
    }
    if let (Some(v), Some(ty)) = (field(case, "value"), field(case, "type")) {
        let ve = (parsers.expr)(v)?;
        let value = r.eval(&ve).map_err(|e| e.message)?;
        let tt = parse_type(&mut r, ty)?;
        out.insert(
            "instance".into(),
            Json::Bool(super::instance_of(&value, &tt)),
        );
        return Ok(());
    }
    if let Some(x) = field(case, "expr") {
        let e = (parsers.expr)(x).map_err(needs_evaluator)?;
        let value = r.eval(&e).map_err(|e| needs_evaluator(e.message))?;
        out.insert("value".into(), Json::String(value.to_string()));
        out.insert("string".into(), Json::String(string_form(&value)));
        out.insert(
            "type".into(),
            Json::String(super::infer_detailed(&value).to_string()),
        );
        out.insert(
            "generalized".into(),
            Json::String(super::infer_generalized(&value).to_string()),
        );
        return Ok(());
    }
    Err("a case needs `a` and `b`, `value` and `type`, or `expr`".into())
}

/// `String(x)`: a string is itself; other values print as with `%p`.
fn string_form(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string(),
        Value::Undef => String::new(),
        _ => v.to_string(),
    }
}
