//! The definition around an expression: the body it is a statement of, the parameters
//! of the class or defined type it is in. For checks that read the syntax tree around
//! a value the interpretation recorded.

use crate::ast::{Block, Expr, ExprKind};
use crate::source::Span;

/// The statements of the innermost class, defined type or node body (or the file's top
/// level) holding `span`.
pub fn enclosing_body(statements: &[Expr], span: Span) -> Option<&[Expr]> {
    for statement in statements.iter().filter(|s| contains(s.span, span)) {
        let body: Option<&Block> = match &statement.kind {
            ExprKind::Class(c) => Some(&c.body),
            ExprKind::Define(d) => Some(&d.body),
            ExprKind::Node(n) => Some(&n.body),
            _ => None,
        };
        if let Some(body) = body {
            return enclosing_body(&body.statements, span).or(Some(&body.statements));
        }
    }
    statements
        .iter()
        .any(|s| contains(s.span, span))
        .then_some(statements)
}

/// The parameters of the innermost class or defined type holding `span`.
pub fn enclosing_parameters(statements: &[Expr], span: Span) -> Option<&[crate::ast::Parameter]> {
    for statement in statements.iter().filter(|s| contains(s.span, span)) {
        let (params, body) = match &statement.kind {
            ExprKind::Class(c) => (c.params.as_deref().unwrap_or_default(), &c.body),
            ExprKind::Define(d) => (d.params.as_deref().unwrap_or_default(), &d.body),
            _ => continue,
        };
        return enclosing_parameters(&body.statements, span).or(Some(params));
    }
    None
}

pub fn contains(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// Whether `expr` is a parameter of the class or defined type around it whose default
/// is `undef`: undef is then what a compile that sets nothing gives it, so a check of
/// the value it is passed as must not count on another.
pub fn defaults_to_undef(program: &crate::ast::Program, expr: &Expr) -> bool {
    let ExprKind::Variable(name) = &expr.kind else {
        return false;
    };
    enclosing_parameters(&program.body, expr.span).is_some_and(|params| {
        params.iter().any(|p| {
            p.name.name == *name
                && matches!(p.default.as_ref().map(|d| &d.kind), Some(ExprKind::Undef))
        })
    })
}
