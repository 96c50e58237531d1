//! The named definitions (class, define, function) with Puppet's label for each, for the
//! rules about their names.

use super::text::each_expr;
use crate::ast::{ExprKind, Ident, Program};

/// `(name, label)` of every class, defined type and function definition.
pub fn named_definitions(program: &Program, mut f: impl FnMut(&Ident, &'static str)) {
    each_expr(program, |expr| match &expr.kind {
        ExprKind::Class(c) => f(&c.name, "a Host Class Definition"),
        ExprKind::Define(d) => f(&d.name, "a 'define' expression"),
        ExprKind::Function(func) => f(&func.name, "a Function Definition"),
        _ => {}
    });
}
