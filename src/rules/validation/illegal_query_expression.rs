use crate::analysis::validator::label;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports collector queries (`File <| ... |>`) built from anything but `attribute == value`,
    /// `attribute != value`, `and`, `or` and parentheses (Puppet's `ILLEGAL_QUERY_EXPRESSION`).
    ///
    /// ## Why it matters
    /// Queries are matched against resource attributes by the catalog, not evaluated as
    /// expressions; Puppet rejects other operators.
    ///
    /// ## Example
    /// ```puppet
    /// User <| uid > 1000 |>
    /// ```
    ///
    /// ## How to fix
    /// Collect with equality tests, and filter in Puppet code if more is needed.
    "illegal-query-expression" (Validation, Error)
    "A collector query uses something other than `==`, `!=`, `and`, `or`"
    { on_expr: [Collector] }
}

/// The first part of a query that is not allowed there.
fn illegal(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Binary {
            op: BinaryOp::Equal | BinaryOp::NotEqual,
            ..
        } => None,
        ExprKind::Binary {
            op: BinaryOp::And | BinaryOp::Or,
            left,
            right,
            ..
        } => illegal(left).or_else(|| illegal(right)),
        ExprKind::Paren(inner) => illegal(inner),
        // Puppet's checker lets these stand alone in a query (`File <| title |>`
        // compiles); an interpolating string does not.
        ExprKind::Variable(_)
        | ExprKind::Name(_)
        | ExprKind::Integer(_)
        | ExprKind::Float(_)
        | ExprKind::String(_)
        | ExprKind::Boolean(_) => None,
        _ => Some(e),
    }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let ExprKind::Collector(c) = &expr.kind else {
        return;
    };
    if let Some(bad) = c.query.as_ref().and_then(illegal) {
        let what = label(bad);
        let article = if what
            .trim_start_matches('\'')
            .starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U'])
        {
            "An"
        } else {
            "A"
        };
        out.push(RULE.diagnostic(
            bad.span,
            format!("Illegal query expression. {article} {what} cannot be used in a query"),
        ));
    }
}
