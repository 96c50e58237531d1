use crate::analysis::walks::*;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports an assignment whose left side is not a variable (or a list of variables), as
    /// Puppet's `ILLEGAL_ASSIGNMENT`.
    ///
    /// ## Why it matters
    /// Puppet rejects the manifest.
    ///
    /// ## Example
    /// ```puppet
    /// 'port' = 8080
    /// ```
    ///
    /// ## How to fix
    /// Assign to a variable: `$port = 8080`.
    "illegal-assignment" (Validation, Error)
    "Something that is not a variable is assigned"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_assignment(ctx, |_, left| {
        for target in assignment_targets(left) {
            if !matches!(
                target.kind,
                ExprKind::Variable(_) | ExprKind::Access { .. } | ExprKind::Error
            ) {
                out.push(RULE.diagnostic(
                    target.span,
                    "Illegal attempt to assign to this expression. Not an assignable reference",
                ));
            }
        }
    });
}
