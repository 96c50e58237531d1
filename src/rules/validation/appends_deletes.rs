use crate::rules::FileContext;
use crate::ast::{AssignOp, Expr, ExprKind};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports `$x += ...` and `$x -= ...` (Puppet's `APPENDS_DELETES_NO_LONGER_SUPPORTED`).
    ///
    /// ## Why it matters
    /// Puppet 4 removed these operators: variables are immutable, so the manifest is rejected.
    ///
    /// ## Example
    /// ```puppet
    /// $packages += ['vim']
    /// ```
    ///
    /// ## How to fix
    /// Assign a new variable: `$all_packages = $packages + ['vim']`.
    "appends-deletes" (Validation, Error)
    "The removed `+=` or `-=` operator is used"
    { on_expr: [Assignment] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Assignment { op, .. } = &expr.kind {
        let symbol = match op {
            AssignOp::AppendAssign => "+=",
            AssignOp::DeleteAssign => "-=",
            AssignOp::Assign => return,
        };
        out.push(RULE.diagnostic(
            expr.span,
            format!("The operator '{symbol}' is no longer supported. See http://links.puppet.com/remove-plus-equals"),
        ));
    }
}
