use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind, ResourceForm};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports `include`, `contain` and `require` of a class, and `class { 'x': }`
    /// declarations, when the class's module is on the modulepath but neither it (in every
    /// file Puppet's loader reads for that name) nor the files checked define the class.
    /// Classes of modules pupcheck has not read are not judged.
    ///
    /// ## Why it matters
    /// Puppet fails the catalog ("Could not find class ::ntp::confg"): a typo, or a class
    /// renamed or removed in a new version of the module.
    ///
    /// ## Example
    /// ```puppet
    /// include ntp::confg
    /// ```
    ///
    /// ## How to fix
    /// Name a class the module has (`ntp::config`), or add the class.
    "unknown-class" (Type, Error)
    "A class is included or declared that its module does not have"
    { on_expr: [Call, Resource] }
}

fn check_expr(ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let mut report = |name: &str, at: &Expr| {
        if ctx.env.class_certainly_missing(name) {
            let key = crate::env::definition_key(name);
            out.push(RULE.diagnostic(at.span, format!("Could not find class ::{key}")));
        }
    };
    match &expr.kind {
        ExprKind::Call(call) => {
            let ExprKind::Name(f) = &call.function.kind else {
                return;
            };
            if matches!(f.as_str(), "include" | "contain" | "require") {
                for (name, at) in crate::infer::declarations::literal_names(&call.args) {
                    report(name, at);
                }
            }
        }
        ExprKind::Resource(resource) if resource.form == ResourceForm::Regular => {
            if matches!(&resource.type_expr.kind, ExprKind::Name(n) if n == "class") {
                for body in &resource.bodies {
                    for (name, at) in crate::infer::declarations::literal_names(std::slice::from_ref(&body.title)) {
                        report(name, at);
                    }
                }
            }
        }
        _ => {}
    }
}
