//! Declarations of classes and defined types the environment index knows
//! (`class { 'ntp': ... }`, `ntp::peer { 'x': ... }`), for the rules that check them
//! against the definitions.

use super::text::each_expr;
use super::FileContext;
use crate::ast::{Expr, ExprKind, Lambda, Parameter, ResourceBody, ResourceForm, Visitor};
use crate::env::Definition;
use crate::eval::{AbstractValue, Evaluator};
use crate::types::resolve::NoAliases;
use crate::types::value::Value;
use std::collections::HashMap;

/// One declaration with the definition it declares.
pub struct Declaration<'a> {
    pub definition: std::sync::Arc<Definition>,
    /// How Puppet names it in messages: `Class[Ntp]`, `Ntp::Peer[x]`.
    pub subject: String,
    pub body: &'a ResourceBody,
    /// The parameters of the class, defined type or function the declaration is in
    /// (none inside a lambda, whose parameters may hide them).
    pub scope_params: &'a [Parameter],
}

/// Which parameters are in scope at each resource expression (by address).
#[derive(Default)]
struct Enclosing<'a> {
    stack: Vec<&'a [Parameter]>,
    in_lambda: usize,
    found: HashMap<*const Expr, &'a [Parameter]>,
}

impl<'a> Visitor<'a> for Enclosing<'a> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        let params = match &expr.kind {
            ExprKind::Class(c) => Some(c.params.as_deref().unwrap_or(&[])),
            ExprKind::Define(d) => Some(d.params.as_deref().unwrap_or(&[])),
            ExprKind::Function(f) => Some(f.params.as_deref().unwrap_or(&[])),
            ExprKind::Node(_) => Some(&[][..]),
            ExprKind::Resource(_) => {
                if let (Some(top), 0) = (self.stack.last(), self.in_lambda) {
                    self.found.insert(expr as *const Expr, top);
                }
                None
            }
            _ => None,
        };
        if let Some(params) = params {
            self.stack.push(params);
            crate::ast::walk_expr(self, expr);
            self.stack.pop();
        } else {
            crate::ast::walk_expr(self, expr);
        }
    }

    fn visit_lambda(&mut self, lambda: &'a Lambda) {
        self.in_lambda += 1;
        crate::ast::walk_lambda_parts(self, lambda);
        self.in_lambda -= 1;
    }
}

/// `ntp::peer` is `Ntp::Peer`.
pub fn capitalized(name: &str) -> String {
    name.split("::")
        .map(|segment| {
            let mut chars = segment.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<String>>()
        .join("::")
}

/// The strings a title evaluates to (one, or an array of them); none when it is not
/// known from the code.
fn titles(title: &crate::ast::Expr) -> Vec<String> {
    match Evaluator::new(&NoAliases).eval(title) {
        Ok(AbstractValue::Known(Value::String(s))) => vec![s.to_string()],
        Ok(AbstractValue::Known(Value::Array(items))) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// Every regular (not virtual or exported) declaration in the file of a class or
/// defined type the index has.
pub fn each_declaration<'a>(ctx: &FileContext<'a>, mut f: impl FnMut(Declaration<'a>)) {
    let env = ctx.env;
    let mut enclosing = Enclosing::default();
    for statement in &ctx.program.body {
        enclosing.visit_expr(statement);
    }
    each_expr(ctx, |expr| {
        let scope_params = enclosing
            .found
            .get(&(expr as *const Expr))
            .copied()
            .unwrap_or(&[]);
        let ExprKind::Resource(resource) = &expr.kind else {
            return;
        };
        let ExprKind::Name(type_name) = &resource.type_expr.kind else {
            return;
        };
        if resource.form != ResourceForm::Regular {
            return;
        }
        for body in &resource.bodies {
            if type_name == "class" {
                for title in titles(&body.title) {
                    if let Some(definition) = env.class(&title) {
                        let subject = format!("Class[{}]", capitalized(&definition.name));
                        f(Declaration {
                            definition,
                            subject,
                            body,
                            scope_params,
                        });
                    }
                }
            } else if let Some(definition) = env.define(type_name) {
                let shown = capitalized(&definition.name);
                let subject = match titles(&body.title).as_slice() {
                    [one] => format!("{shown}[{one}]"),
                    _ => shown,
                };
                f(Declaration {
                    definition,
                    subject,
                    body,
                    scope_params,
                });
            }
        }
    });
}
