//! Every body of a file walked in evaluation order (`eval::flow`): the top level, then
//! each class, defined type, function and node body with its parameters known by their
//! types. Rules that judge values where they are used start here.

use super::text::each_expr;
use super::FileContext;
use crate::ast::{Expr, ExprKind, Parameter};
use crate::env::FileAliases;
use crate::eval::flow::Reached;
use crate::eval::{AbstractValue, Evaluator};

/// Calls `f` at each resource expression and call of the file, with an evaluator
/// holding what is known at that point.
pub fn walk_bodies<'p>(
    ctx: &FileContext<'p>,
    aliases: &FileAliases,
    f: &mut dyn FnMut(&mut Evaluator, Reached<'p>),
) {
    walk_body(aliases, &[], &ctx.program.body, f);
    each_expr(ctx, |expr| {
        let (params, body) = match &expr.kind {
            ExprKind::Class(c) => (c.params.as_deref().unwrap_or(&[]), &c.body),
            ExprKind::Define(d) => (d.params.as_deref().unwrap_or(&[]), &d.body),
            ExprKind::Function(func) => (func.params.as_deref().unwrap_or(&[]), &func.body),
            ExprKind::Node(n) => (&[][..], &n.body),
            _ => return,
        };
        walk_body(aliases, params, &body.statements, f);
    });
}

fn walk_body<'p>(
    aliases: &FileAliases,
    params: &[Parameter],
    statements: &'p [Expr],
    f: &mut dyn FnMut(&mut Evaluator, Reached<'p>),
) {
    let mut evaluator = Evaluator::new(aliases);
    for p in params.iter().filter(|p| !p.captures_rest) {
        let ty = p
            .type_expr
            .as_ref()
            .and_then(|t| evaluator.resolve_type(t).ok())
            .unwrap_or_else(crate::types::t::any);
        evaluator.bind(&p.name.name, AbstractValue::Inferred(ty));
    }
    evaluator.walk(statements, &mut |evaluator, reached| f(evaluator, reached));
}
