use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports `@class { ... }` and `@@class { ... }` (Puppet's `CLASS_NOT_VIRTUALIZABLE`).
    ///
    /// ## Why it matters
    /// Classes cannot be virtual or exported; Puppet rejects the manifest.
    ///
    /// ## Example
    /// ```puppet
    /// @class { 'ntp': }
    /// ```
    ///
    /// ## How to fix
    /// Declare the class normally, or wrap what should be virtual in a defined type.
    "class-not-virtualizable" (Validation, Error)
    "A class is declared virtual or exported"
    { on_expr: [Resource] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Resource(r) = &expr.kind {
        if r.form != ResourceForm::Regular
            && matches!(&r.type_expr.kind, ExprKind::Name(n) if n == "class")
        {
            out.push(RULE.diagnostic(expr.span, "Classes are not virtualizable"));
        }
    }
}
