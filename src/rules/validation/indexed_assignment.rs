use crate::analysis::walks::*;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports `$x[key] = value` (Puppet's `ILLEGAL_INDEXED_ASSIGNMENT`).
    ///
    /// ## Why it matters
    /// Values are immutable in Puppet: an element cannot be replaced, and the manifest is
    /// rejected.
    ///
    /// ## Example
    /// ```puppet
    /// $settings[port] = 8080
    /// ```
    ///
    /// ## How to fix
    /// Build a new value: `$new = $settings + { 'port' => 8080 }`.
    "indexed-assignment" (Validation, Error)
    "An element of an array or hash is assigned"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_assignment(ctx, |_, left| {
        for target in assignment_targets(left) {
            if matches!(target.kind, ExprKind::Access { .. }) {
                out.push(RULE.diagnostic(
                    target.span,
                    "Illegal attempt to assign via [index/key]. Not an assignable reference",
                ));
            }
        }
    });
}
