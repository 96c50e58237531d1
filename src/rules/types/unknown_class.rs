use crate::rules::InterpretedFile;
use crate::ast::{Expr, ExprKind, ResourceForm};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports `include`, `contain` and `require` of a class, and `class { 'x': }`
    /// declarations, when the class's module is on the modulepath but neither it (in every
    /// file Puppet's loader reads for that name) nor the files checked define the class.
    ///
    /// A class of a module that is not on the modulepath at all is reported too when the
    /// environment is closed (docs/certainty.md: a control repository whose `Puppetfile`
    /// is installed and whose modulepath is its own, a module whose `.fixtures.yml` is, or `environment = "closed"` in
    /// `pupcheck.toml`) and the main manifest does not define it; in an open environment
    /// that is a warning saying what is missing (`module 'apache' named in the Puppetfile
    /// is not installed`). Not judged: files in no environment or module repository,
    /// code Puppet does not run and, as an error, code a condition decides (an `if`, `case` or selector branch), and Puppet Enterprise's own modules
    /// (`puppet_enterprise`, `pe_*`, installed outside every repository).
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
    { reads_interpretation, check }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    for expr in &ctx.exprs {
        if !ctx.inference().is_skipped(expr) {
            classes_declared(expr, |name, at| {
                if let Some(unresolved) = ctx.env.unresolved_class(name) {
                    let key = crate::env::definition_key(name);
                    found.push((at.span, format!("Could not find class ::{key}"), unresolved));
                }
            });
        }
    }
    RULE.report_unresolved(ctx, found, out);
}

/// The classes `expr` declares by name: `include`, `contain`, `require`, `class { }`.
fn classes_declared<'e>(expr: &'e Expr, mut report: impl FnMut(&'e str, &'e Expr)) {
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
