use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Fix};

declare_rule! {
    /// ## What it does
    /// Reports resource titles written as bare words (`file { foo: }`).
    ///
    /// ## Why it matters
    /// Titles are strings; quoting them makes that plain and avoids surprises with words that
    /// are keywords or contain dashes.
    ///
    /// ## Example
    /// ```puppet
    /// package { vim: ensure => installed }
    /// ```
    ///
    /// ## How to fix
    /// Quote it: `package { 'vim': ... }`.
    "unquoted-resource-title" (Style, Warning)
    "A resource title is a bare word"
    { fixable, puppet_lint: "unquoted_resource_title", on_expr: [Resource] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Resource(r) = &expr.kind {
        for b in &r.bodies {
            if let ExprKind::Name(name) = &b.title.kind {
                out.push(
                    RULE.diagnostic(b.title.span, "unquoted resource title")
                        .with_fix(Fix::replace(b.title.span, format!("'{name}'"))),
                );
            }
        }
    }
}
