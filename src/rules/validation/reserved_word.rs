use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "reserved-word",
    summary: "The reserved word `attr` or `private` is used as a value",
    category: Category::Validation,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports the reserved words `attr` and `private` used as bare words (Puppet's
`RESERVED_WORD`).

## Why it matters
They are reserved for future language features; Puppet rejects them unquoted.

## Example
```puppet
$visibility = private
```

## How to fix
Quote it: `'private'`.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::Reserved],
        visit: check_expr,
    }),
};

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Reserved(word) = &expr.kind {
        out.push(RULE.diagnostic(
            expr.span,
            format!(
                "Use of reserved word: {word}, must be quoted if intended to be a String value"
            ),
        ));
    }
}
