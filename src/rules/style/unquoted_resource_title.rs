use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Fix, Severity};

pub static RULE: Rule = Rule {
    id: "unquoted-resource-title",
    summary: "A resource title is a bare word",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: true,
    reads_interpretation: false,
    puppet_lint: Some("unquoted_resource_title"),
    docs: "\
## What it does
Reports resource titles written as bare words (`file { foo: }`).

## Why it matters
Titles are strings; quoting them makes that plain and avoids surprises with words that
are keywords or contain dashes.

## Example
```puppet
package { vim: ensure => installed }
```

## How to fix
Quote it: `package { 'vim': ... }`.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::Resource],
        visit: check_expr,
    }),
};

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
