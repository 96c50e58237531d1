//! The walks over a file's expressions the rules share: every expression, parameter
//! list, assignment, resource body and interpolation, in source order.

use crate::analysis::context::FileContext;
use crate::ast::{Expr, ExprKind, StringPart};
use crate::source::Span;

/// Calls `f` on every expression of the file, outermost first, in source order.
pub fn each_expr<'p>(ctx: &FileContext<'p>, mut f: impl FnMut(&'p Expr)) {
    for &expr in &ctx.exprs {
        f(expr);
    }
}

/// The spans of the keys in `$var[...]` and `$var[...][...]`. puppet-lint's lexer reads
/// such an access as part of the variable, so its string checks never see these keys.
pub fn variable_access_keys<'p>(ctx: &FileContext<'p>) -> Vec<Span> {
    fn rooted_at_variable(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Variable(_) => true,
            ExprKind::Access { object, .. } => rooted_at_variable(object),
            _ => false,
        }
    }
    let mut keys = Vec::new();
    each_expr(ctx, |expr| {
        if let ExprKind::Access { object, args } = &expr.kind {
            if rooted_at_variable(object) {
                keys.extend(args.iter().map(|a| a.span));
            }
        }
    });
    keys.sort();
    keys
}

/// Every parameter list of the file ([`crate::ast::each_parameter_list`]).
pub fn each_parameter_list<'p>(
    ctx: &FileContext<'p>,
    f: impl FnMut(String, &[crate::ast::Parameter]),
) {
    crate::ast::each_parameter_list(ctx.program, &ctx.exprs, f)
}

/// The assignments of the program: `(assignment, left-hand side)` for `=` only.
pub fn each_assignment<'p>(ctx: &FileContext<'p>, mut f: impl FnMut(&Expr, &Expr)) {
    each_expr(ctx, |expr| {
        if let ExprKind::Assignment {
            op: crate::ast::AssignOp::Assign,
            left,
            ..
        } = &expr.kind
        {
            f(expr, left);
        }
    });
}

/// The places a left-hand side assigns to: itself, or each element of `[$a, $b] = ...`.
pub fn assignment_targets(left: &Expr) -> Vec<&Expr> {
    match &left.kind {
        ExprKind::Array(items) => items.iter().flat_map(assignment_targets).collect(),
        _ => vec![left],
    }
}

/// Every resource body of the program with its resource type name (`file`, `class`...),
/// for resources whose type is a bare name.
pub fn each_resource_body<'p>(
    ctx: &FileContext<'p>,
    mut f: impl FnMut(&str, &crate::ast::ResourceBody),
) {
    each_expr(ctx, |expr| {
        if let ExprKind::Resource(r) = &expr.kind {
            if let ExprKind::Name(t) = &r.type_expr.kind {
                for b in &r.bodies {
                    f(t, b);
                }
            }
        }
    });
}

/// Calls `f` on the expression of every interpolation (`$x`, `${...}`) of every string
/// and heredoc of the file.
pub fn each_interpolation<'p>(ctx: &FileContext<'p>, mut f: impl FnMut(&'p Expr)) {
    each_expr(ctx, |expr| {
        let parts = match &expr.kind {
            ExprKind::Interpolated(parts) => parts,
            ExprKind::Heredoc(h) => &h.parts,
            _ => return,
        };
        for part in parts {
            if let StringPart::Interpolation(e) = part {
                f(e);
            }
        }
    });
}
