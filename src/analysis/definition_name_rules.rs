//! The named definitions (class, define, function) with Puppet's label for each, for the
//! rules about their names.

use super::walks::each_expr;
use crate::ast::{ExprKind, Ident};

/// `(name, label)` of every class, defined type and function definition.
pub fn named_definitions(
    ctx: &crate::analysis::context::FileContext,
    mut f: impl FnMut(&Ident, &'static str),
) {
    each_expr(ctx, |expr| match &expr.kind {
        ExprKind::Class(c) => f(&c.name, "a Host Class Definition"),
        ExprKind::Define(d) => f(&d.name, "a 'define' expression"),
        ExprKind::Function(func) => f(&func.name, "a Function Definition"),
        _ => {}
    });
}
