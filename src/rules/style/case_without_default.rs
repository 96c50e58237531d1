use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::{Expr, ExprKind, ExprTag};
use crate::diagnostics::{Diagnostic, Severity};
use crate::source::Span;

pub static RULE: Rule = Rule {
    id: "case-without-default",
    summary: "A case statement has no default option",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: Some("case_without_default"),
    docs: "\
## What it does
Reports `case` expressions none of whose options is `default` (an array pattern holding
`default`, such as `[default]`, counts as one, as in puppet-lint).

## Why it matters
When no option matches, the case silently does nothing (and evaluates to `undef`); the
style guide asks for an explicit default, even one that fails.

## Example
```puppet
case $facts['os']['family'] {
  'Debian': { include apt }
  'RedHat': { include yum }
}
```

## How to fix
Add `default: { }` or, better, `default: { fail(\"unsupported OS ${facts['os']['family']}\") }`.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::Case],
        visit: check_expr,
    }),
};

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Case(case) = &expr.kind {
        let has_default = case
            .options
            .iter()
            .any(|o| o.matchers.iter().any(names_default));
        if !has_default {
            let keyword = Span::new(expr.span.start, expr.span.start + "case".len() as u32);
            out
                .push(RULE.diagnostic(keyword, "case statement without a default case"));
        }
    }
}

/// Whether an option's matcher is `default` or an array pattern with `default` in it
/// (`[default]`, `[true, default]`): puppet-lint takes any `default` among the options
/// as the case's default, and `[default]` matches every one-element array.
fn names_default(matcher: &Expr) -> bool {
    match &matcher.kind {
        ExprKind::Default => true,
        ExprKind::Array(items) => items.iter().any(names_default),
        _ => false,
    }
}
