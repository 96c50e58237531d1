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

/// What `undef` means where a value is passed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Undef {
    /// Like any other value (a function's argument, a default).
    IsAValue,
    /// The parameter's default is used (a resource attribute).
    LeavesTheDefault,
}

/// Why the value of `expr` cannot be an instance of the type written `type_expr` (the
/// parameter `param`'s), in Puppet's words; `None` when it can, or when that is not
/// certain (a value known only by a type that shares values with it, a regexp pupcheck
/// cannot run, a type it cannot resolve).
pub fn mismatch(
    evaluator: &mut Evaluator,
    type_expr: &Expr,
    param: &str,
    expr: &Expr,
    undef: Undef,
) -> Option<Vec<String>> {
    use crate::types::mismatch::{describe_types, describe_value, PathElem};
    let ty = evaluator.resolve_type(type_expr).ok()?;
    let path = [PathElem::Parameter(param.to_string())];
    match evaluator.eval(expr).ok()? {
        AbstractValue::Known(value) => (!crate::types::instance_of(&value, &ty)
            && ty.patterns_runnable())
        .then(|| describe_value(&ty, &value, &path))
        .filter(|why| !why.is_empty()),
        AbstractValue::Inferred(actual) => {
            let (certain, shown) = match undef {
                Undef::IsAValue => (crate::types::disjoint::disjoint(&actual, &ty), actual),
                Undef::LeavesTheDefault => (
                    crate::types::disjoint::disjoint_but_undef(&actual, &ty),
                    without_undef(&actual),
                ),
            };
            certain
                .then(|| describe_types(&ty, &shown, &path))
                .filter(|why| !why.is_empty())
        }
    }
}

/// `Optional[T]` is `T` where an undef value leaves the parameter's default.
fn without_undef(ty: &crate::types::Type) -> crate::types::Type {
    match ty.kind() {
        crate::types::Kind::Optional(Some(inner)) => inner.clone(),
        _ => ty.clone(),
    }
}
