use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a class or defined type parameter that captures the rest (`*$rest`), Puppet's
    /// `CAPTURES_REST_NOT_SUPPORTED`.
    ///
    /// ## Why it matters
    /// Classes and defined types are given named attributes, not argument lists; Puppet rejects
    /// the manifest.
    ///
    /// ## Example
    /// ```puppet
    /// define demo::thing (String *$rest) { }
    /// ```
    ///
    /// ## How to fix
    /// Take an array or hash parameter instead.
    "captures-rest-not-supported" (Validation, Error)
    "A class or defined type has a `*$rest` parameter"
    { on_expr: [Class, Define] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let (params, container) = match &expr.kind {
        ExprKind::Class(c) => (&c.params, "a Host Class Definition"),
        ExprKind::Define(d) => (&d.params, "a 'define' expression"),
        _ => return,
    };
    for p in params.iter().flatten().filter(|p| p.captures_rest) {
        out.push(RULE.diagnostic(
            p.name.span,
            format!(
                "Parameter ${} has 'captures rest' - not supported in {container}",
                p.name.name
            ),
        ));
    }
}
