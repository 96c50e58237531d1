use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::{Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Reports a class or defined type parameter named after a metaparameter (`tag`,
    /// `loglevel`, `require`, `notify`, `before`, ...), as `puppet parser validate` warns. Without
    /// a default value it is an error: Puppet's validator refuses the definition.
    ///
    /// ## Why it matters
    /// The value is also the metaparameter of the defined resource, so it is inherited by every
    /// resource the definition contains, which is rarely intended.
    ///
    /// ## Example
    /// ```puppet
    /// define demo::pool (String $tag) { }
    /// ```
    ///
    /// ## How to fix
    /// Rename the parameter (`$pool_tag`), or rely on the metaparameter itself.
    "metaparameter-name" (Validation, Warning)
    "A class or defined type parameter is named like a metaparameter"
    { on_expr: [Class, Define] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let (name, params) = match &expr.kind {
        ExprKind::Define(d) => (&d.name.name, &d.params),
        ExprKind::Class(c) => (&c.name.name, &c.params),
        _ => return,
    };
    for p in params.iter().flatten() {
        if !crate::builtin::is_metaparameter(&p.name.name) {
            continue;
        }
        let param = &p.name.name;
        if p.default.is_some() {
            out.push(RULE.diagnostic(
                p.name.span,
                format!(
                    "{param} is a metaparam; this value will inherit to all contained resources in the {name} definition"
                ),
            ));
        } else {
            // Without a default, Puppet's validator refuses the definition.
            let mut d = RULE.diagnostic(
                p.name.span,
                format!(
                    "{param} is a metaparameter; please choose another parameter name in the {name} definition"
                ),
            );
            d.severity = Severity::Error;
            out.push(d);
        }
    }
}
