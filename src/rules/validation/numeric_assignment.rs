use crate::analysis::walks::*;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports an assignment to `$0`, `$1`, ... (Puppet's `ILLEGAL_NUMERIC_ASSIGNMENT`).
    ///
    /// ## Why it matters
    /// These hold the results of the last regular expression match; Puppet rejects assigning
    /// them.
    ///
    /// ## Example
    /// ```puppet
    /// $1 = 'x'
    /// ```
    ///
    /// ## How to fix
    /// Use a named variable.
    "numeric-assignment" (Validation, Error)
    "A numeric match variable (`$0`, `$1`) is assigned"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_assignment(ctx, |_, left| {
        for target in assignment_targets(left) {
            if let ExprKind::Variable(name) = &target.kind {
                if name.bytes().all(|b| b.is_ascii_digit()) {
                    out.push(RULE.diagnostic(
                        target.span,
                        format!("Illegal attempt to assign to the numeric match result variable '${name}'. Numeric variables are not assignable"),
                    ));
                }
            }
        }
    });
}
