use crate::analysis::walks::*;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports an assignment to `$facts`, `$trusted` or `$server_facts` (or their top-scope
    /// forms `$::facts`, ...).
    ///
    /// ## Why it matters
    /// Puppet sets these itself; compiling the catalog fails with "Attempt to assign to a
    /// reserved variable name".
    ///
    /// ## Example
    /// ```puppet
    /// $facts = {}
    /// ```
    ///
    /// ## How to fix
    /// Use another name.
    "reserved-variable-assignment" (Validation, Error)
    "`$facts`, `$trusted` or `$server_facts` is assigned"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_assignment(ctx, |_, left| {
        for target in assignment_targets(left) {
            if let ExprKind::Variable(name) = &target.kind {
                let bare = name.trim_start_matches("::");
                if matches!(bare, "facts" | "trusted" | "server_facts") {
                    out.push(RULE.diagnostic(
                        target.span,
                        format!("Attempt to assign to a reserved variable name: '${bare}'"),
                    ));
                }
            }
        }
    });
}
