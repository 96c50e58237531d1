use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports `@File { ... }`, `@@File { ... }` and `@File['x'] { ... }`: resource defaults and
    /// overrides cannot be virtual or exported (Puppet's `NOT_VIRTUALIZEABLE`).
    ///
    /// ## Why it matters
    /// Only resource declarations can be virtual; Puppet rejects the manifest.
    ///
    /// ## Example
    /// ```puppet
    /// @File { mode => '0644' }
    /// ```
    ///
    /// ## How to fix
    /// Remove the `@`: defaults apply to virtual resources too once they are realized.
    "not-virtualizable" (Validation, Error)
    "Resource defaults or an override are marked virtual or exported"
    { on_expr: [ResourceDefaults, ResourceOverride] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let form = match &expr.kind {
        ExprKind::ResourceDefaults(d) => d.form,
        ExprKind::ResourceOverride(o) => o.form,
        _ => return,
    };
    if form != ResourceForm::Regular {
        out.push(RULE.diagnostic(expr.span, "Resource Defaults are not virtualizable"));
    }
}
