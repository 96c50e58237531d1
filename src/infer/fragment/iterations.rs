//! The titles a declaration takes in each turn of an `each` or `map` over a collection
//! the walk knows: the walk reads a lambda's body once, with its parameters known by
//! type, so `['a', 'b'].each |$p| { package { $p: } }` has a title known only as a
//! `String`; a fragment gives the catalog `Package[a]` and `Package[b]`.

use crate::ast::{Expr, ExprKind, Lambda, StringPart};
use crate::types::Value;

/// An iteration being walked: each turn's values of the lambda's parameters.
pub(super) struct Iteration {
    params: Vec<String>,
    turns: Vec<Vec<Value>>,
    /// Every turn runs whenever the body does (a call on every path of the body, over a
    /// collection that is not empty).
    pub certain: bool,
    /// The lambda's own statements: what runs in every turn.
    statements: Vec<crate::source::Span>,
}

impl Iteration {
    /// The turns of `each` or `map` with `lambda` over `collection` (as Puppet binds
    /// them: one parameter takes an element, or a `[key, value]` pair of a hash; two
    /// take the index and the element, or the key and the value); `None` for another
    /// function or shape.
    pub fn of(
        function: &str,
        collection: &Value,
        lambda: &Lambda,
        call_certain: bool,
    ) -> Option<Iteration> {
        if !matches!(function, "each" | "map") {
            return None;
        }
        let params: Vec<String> = lambda.params.iter().map(|p| p.name.name.clone()).collect();
        let turns: Vec<Vec<Value>> = match (collection, params.len()) {
            (Value::Array(items), 1) => items.iter().map(|v| vec![v.clone()]).collect(),
            (Value::Array(items), 2) => items
                .iter()
                .enumerate()
                .map(|(i, v)| vec![Value::Integer(i as i64), v.clone()])
                .collect(),
            (Value::Hash(hash), 1) => hash
                .iter()
                .map(|(k, v)| {
                    vec![Value::Array(std::sync::Arc::new(vec![
                        k.clone(),
                        v.clone(),
                    ]))]
                })
                .collect(),
            (Value::Hash(hash), 2) => hash
                .iter()
                .map(|(k, v)| vec![k.clone(), v.clone()])
                .collect(),
            _ => return None,
        };
        Some(Iteration {
            certain: call_certain && !turns.is_empty(),
            params,
            turns,
            statements: lambda.body.statements.iter().map(|s| s.span).collect(),
        })
    }

    /// Whether the statement at `span` is one of the lambda's own (not in a branch).
    pub fn runs_every_turn(&self, span: crate::source::Span) -> bool {
        self.statements.contains(&span)
    }

    /// The title `expr` gives in each turn, when it is a parameter or a string of
    /// text and parameters whose values are strings or integers.
    pub fn titles(&self, expr: &Expr) -> Option<Vec<Value>> {
        self.turns
            .iter()
            .map(|turn| self.evaluate(expr, turn))
            .collect()
    }

    fn evaluate(&self, expr: &Expr, turn: &[Value]) -> Option<Value> {
        match &expr.kind {
            ExprKind::Variable(name) => {
                let i = self.params.iter().position(|p| p == name)?;
                turn.get(i).cloned()
            }
            ExprKind::Interpolated(parts) => {
                let mut text = String::new();
                for part in parts {
                    match part {
                        StringPart::Text(t, _) => text.push_str(t),
                        StringPart::Interpolation(e) => match self.evaluate(e, turn)? {
                            Value::String(s) => text.push_str(&s),
                            Value::Integer(n) => text.push_str(&n.to_string()),
                            _ => return None,
                        },
                    }
                }
                Some(Value::String(text.into()))
            }
            _ => None,
        }
    }
}
