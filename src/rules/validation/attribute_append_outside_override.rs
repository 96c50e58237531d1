use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports the `+>` attribute operator in a resource declaration or resource defaults
    /// (Puppet's `ILLEGAL_ATTRIBUTE_APPEND`); it is only allowed in overrides
    /// (`File['x'] { ... }`) and collector overrides.
    ///
    /// ## Why it matters
    /// Puppet rejects the manifest.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/tmp/x': require +> Package['a'] }
    /// ```
    ///
    /// ## How to fix
    /// Use `=>` in a declaration; use `+>` only when adding to an existing resource.
    "attribute-append-outside-override" (Validation, Error)
    "`+>` is used outside a resource override or collector"
    { on_expr: [Resource, ResourceDefaults] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let mut report = |attributes: &[Attribute], container: &str| {
        for a in attributes.iter().filter(|a| a.op == AttributeOp::Append) {
            out.push(RULE.diagnostic(
                a.span,
                format!("Illegal +> operation on attribute {}. This operator can not be used in {container}", a.name.name),
            ));
        }
    };
    match &expr.kind {
        ExprKind::Resource(r) => r
            .bodies
            .iter()
            .for_each(|b| report(&b.attributes, "a Resource Expression")),
        ExprKind::ResourceDefaults(d) => report(&d.attributes, "a Resource Defaults Expression"),
        _ => {}
    }
}
