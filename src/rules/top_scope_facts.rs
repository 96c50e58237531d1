use super::text::each_expr;
use super::{Category, FileContext, Rule};
use crate::ast::ExprKind;
use crate::diagnostics::{Diagnostic, Fix, Severity};

pub static RULE: Rule = Rule {
    id: "top-scope-facts",
    summary: "A fact read as a top-scope variable instead of from `$facts`",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: true,
    puppet_lint: Some("top_scope_facts"),
    docs: "\
## What it does
Reports top-scope variables such as `$::operatingsystem`, as puppet-lint 4's
`top_scope_facts` does (`$::facts`, `$::trusted` and `$::server_facts` excepted).

## Why it matters
`$facts['name']` says where the value comes from and cannot be overridden by a
top-scope variable of the same name, which `$::name` can.

## Example
```puppet
$service = $::operatingsystem ? { 'Debian' => 'apache2', default => 'httpd' }
```

## How to fix
Read the facts hash: `$facts['operatingsystem']` (the fix does that; `legacy-facts`
then suggests the structured fact). A top-scope variable that is not a fact (set in
`site.pp`) is reported too; such variables are better passed as class parameters.
",
    check: Some(check),
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let text = &ctx.source.text;
    each_expr(ctx, |expr| {
        let ExprKind::Variable(v) = &expr.kind else {
            return;
        };
        let Some(name) = v.strip_prefix("::") else {
            return;
        };
        if name.contains("::") || matches!(name, "facts" | "trusted" | "server_facts") {
            return;
        }
        if name.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            return; // $::0 is not a fact
        }
        let dollar = if text[expr.span.range()].starts_with('$') {
            "$"
        } else {
            ""
        };
        out.push(
            RULE.diagnostic(expr.span, "top scope fact instead of facts hash")
                .with_fix(Fix::replace(expr.span, format!("{dollar}facts['{name}']"))),
        );
    });
}
