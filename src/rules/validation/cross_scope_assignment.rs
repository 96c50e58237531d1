use crate::analysis::walks::*;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports an assignment to a qualified variable (`$other::name`), Puppet's
    /// `CROSS_SCOPE_ASSIGNMENT`.
    ///
    /// ## Why it matters
    /// A class can only set its own variables; Puppet rejects the manifest.
    ///
    /// ## Example
    /// ```puppet
    /// $apache::port = 8080
    /// ```
    ///
    /// ## How to fix
    /// Pass the value as a class parameter, or use a local variable.
    "cross-scope-assignment" (Validation, Error)
    "A variable of another namespace is assigned"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_assignment(ctx, |_, left| {
        for target in assignment_targets(left) {
            if let ExprKind::Variable(name) = &target.kind {
                if name.contains("::") {
                    out.push(RULE.diagnostic(
                        target.span,
                        format!("Illegal attempt to assign to '${name}'. Cannot assign to variables in other namespaces"),
                    ));
                }
            }
        }
    });
}
