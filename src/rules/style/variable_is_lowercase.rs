use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "variable-is-lowercase",
    summary: "A variable name has an uppercase letter",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: Some("variable_is_lowercase"),
    docs: "\
## What it does
Reports variables with uppercase letters in their name.

## Why it matters
Puppet variable names are lowercase; an uppercase first letter is even rejected
(see `illegal-variable-name`).

## Example
```puppet
$myVar = 1
```

## How to fix
Use lowercase with underscores: `$my_var`.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::Variable],
        visit: check_expr,
    }),
};

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Variable(name) = &expr.kind {
        if name.chars().any(|c| c.is_ascii_uppercase()) {
            out.push(RULE.diagnostic(expr.span, "variable contains an uppercase letter"));
        }
    }
}
