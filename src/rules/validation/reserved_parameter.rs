use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a parameter named `name` or `title` of a class or defined type (Puppet's
    /// `RESERVED_PARAMETER`).
    ///
    /// ## Why it matters
    /// Every class and defined type already has these; Puppet's validator rejects redefining
    /// them.
    ///
    /// ## Example
    /// ```puppet
    /// define demo::site (String $title) { }
    /// ```
    ///
    /// ## How to fix
    /// Use the built-in `$title`/`$name`, or choose another parameter name.
    "reserved-parameter" (Validation, Error)
    "A class or defined type declares `$name` or `$title` as a parameter"
    { on_expr: [Class, Define] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let (params, container) = match &expr.kind {
        ExprKind::Class(c) => (&c.params, format!("the class '{}'", c.name.name)),
        ExprKind::Define(d) => (&d.params, format!("the defined type '{}'", d.name.name)),
        _ => return,
    };
    for p in params.iter().flatten() {
        if p.name.name == "name" || p.name.name == "title" {
            out.push(RULE.diagnostic(
                p.name.span,
                format!(
                    "The parameter ${} redefines a built in parameter in {container}",
                    p.name.name
                ),
            ));
        }
    }
}
