use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "not-virtualizable",
    summary: "Resource defaults or an override are marked virtual or exported",
    category: Category::Validation,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports `@File { ... }`, `@@File { ... }` and `@File['x'] { ... }`: resource defaults and
overrides cannot be virtual or exported (Puppet's `NOT_VIRTUALIZEABLE`).

## Why it matters
Only resource declarations can be virtual; Puppet rejects the manifest.

## Example
```puppet
@File { mode => '0644' }
```

## How to fix
Remove the `@`: defaults apply to virtual resources too once they are realized.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::ResourceDefaults, ExprTag::ResourceOverride],
        visit: check_expr,
    }),
};

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
