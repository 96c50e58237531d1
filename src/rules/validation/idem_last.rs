use crate::analysis::validator::{idem, label};
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a class, defined type or node whose last statement only produces a value (a
    /// literal, a name, an arithmetic expression...), Puppet's `IDEM_NOT_ALLOWED_LAST`.
    ///
    /// ## Why it matters
    /// Unlike a function or lambda, these bodies return nothing, so the value is lost; Puppet's
    /// validator rejects it. It usually is the leftover of an unfinished statement.
    ///
    /// ## Example
    /// ```puppet
    /// class demo {
    ///   include demo::install
    ///   'done'
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Remove the value, or finish the statement it belongs to.
    "idem-last" (Validation, Error)
    "A class, defined type or node body ends with a value that has no effect"
    { on_expr: [Class, Define, Node] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let (body, container) = match &expr.kind {
        ExprKind::Class(c) => (&c.body, "A Host Class Definition"),
        ExprKind::Define(d) => (&d.body, "A 'define' expression"),
        ExprKind::Node(n) => (&n.body, "A Node Definition"),
        _ => return,
    };
    if let Some(last) = body.statements.last().filter(|s| idem(s)) {
        out.push(RULE.diagnostic(
            last.span,
            format!(
                "This {} has no effect. {container} can not end with a value-producing expression without other effect",
                label(last)
            ),
        ));
    }
}
