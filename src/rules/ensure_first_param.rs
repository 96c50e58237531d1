use super::text::each_expr;
use super::{Category, FileContext, Rule};
use crate::ast::ExprKind;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "ensure-first-param",
    summary: "`ensure` is not the first attribute of a resource",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: Some("ensure_first_param"),
    docs: "\
## What it does
Reports a resource body whose `ensure` attribute is not the first one. Class
declarations (`class { 'x': }`) are not checked.

## Why it matters
`ensure` decides whether the other attributes matter at all (an absent file has no
mode); the style guide puts it first so a reader sees it first.

## Example
```puppet
file { '/etc/motd':
  mode   => '0644',
  ensure => file,
}
```

## How to fix
Move `ensure` to the top of the body.
",
    check: Some(check),
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_expr(ctx, |expr| {
        let ExprKind::Resource(resource) = &expr.kind else {
            return;
        };
        if matches!(&resource.type_expr.kind, ExprKind::Name(n) if n == "class") {
            return;
        }
        for body in &resource.bodies {
            let names = body.attributes.iter().filter(|a| a.name.name != "*");
            if let Some((i, ensure)) = names.enumerate().find(|(_, a)| a.name.name == "ensure") {
                if i > 0 {
                    out.push(RULE.diagnostic(
                        ensure.name.span,
                        "ensure found on line but it's not the first attribute",
                    ));
                }
            }
        }
    });
}
