use crate::rules::FileContext;
use crate::ast::{Attribute, Expr, ExprKind};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a second attribute splat (`* => $hash`) in one resource body (Puppet's
    /// `MULTIPLE_ATTRIBUTES_UNFOLD`).
    ///
    /// ## Why it matters
    /// Puppet's validator rejects it.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/tmp/x':
    ///   * => $defaults,
    ///   * => $overrides,
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Merge the hashes: `* => $defaults + $overrides`.
    "multiple-attributes-unfold" (Validation, Error)
    "A resource body has more than one `* =>`"
    { on_expr: [Resource, ResourceDefaults, ResourceOverride] }
}

fn check_body(out: &mut Vec<Diagnostic>, attributes: &[Attribute]) {
    let splats: Vec<&Attribute> = attributes.iter().filter(|a| a.name.name == "*").collect();
    for extra in splats.iter().skip(1) {
        out.push(
            RULE.diagnostic(
                extra.name.span,
                "Unfolding of attributes from Hash can only be used once per resource body",
            )
            .with_label(splats[0].name.span, "the first unfold"),
        );
    }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match &expr.kind {
    ExprKind::Resource(r) => r.bodies.iter().for_each(|b| check_body(out, &b.attributes)),
    ExprKind::ResourceDefaults(d) => check_body(out, &d.attributes),
    ExprKind::ResourceOverride(o) => check_body(out, &o.attributes),
    _ => {}
    }
}
