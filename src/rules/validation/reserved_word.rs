use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports the reserved words `attr` and `private` used as bare words (Puppet's
    /// `RESERVED_WORD`).
    ///
    /// ## Why it matters
    /// They are reserved for future language features; Puppet rejects them unquoted.
    ///
    /// ## Example
    /// ```puppet
    /// $visibility = private
    /// ```
    ///
    /// ## How to fix
    /// Quote it: `'private'`.
    "reserved-word" (Validation, Error)
    "The reserved word `attr` or `private` is used as a value"
    { on_expr: [Reserved] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Reserved(word) = &expr.kind {
        out.push(RULE.diagnostic(
            expr.span,
            format!(
                "Use of reserved word: {word}, must be quoted if intended to be a String value"
            ),
        ));
    }
}
