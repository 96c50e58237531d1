use crate::rules::{Category, FileContext, Rule};
use crate::ast::{walk_expr, Expr, ExprKind, Visitor};
use crate::diagnostics::{Diagnostic, Severity};
use crate::source::Span;

pub static RULE: Rule = Rule {
    id: "case-without-default",
    summary: "A case statement has no default option",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
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
    check: Some(check),
    on_expr: None,
};

struct Find<'a> {
    out: &'a mut Vec<Diagnostic>,
}

impl Visitor<'_> for Find<'_> {
    fn visit_expr(&mut self, expr: &Expr) {
        if let ExprKind::Case(case) = &expr.kind {
            let has_default = case
                .options
                .iter()
                .any(|o| o.matchers.iter().any(names_default));
            if !has_default {
                let keyword = Span::new(expr.span.start, expr.span.start + "case".len() as u32);
                self.out
                    .push(RULE.diagnostic(keyword, "case statement without a default case"));
            }
        }
        walk_expr(self, expr);
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

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let mut find = Find { out };
    for statement in &ctx.program.body {
        find.visit_expr(statement);
    }
}
