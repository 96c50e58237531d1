use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "class-not-virtualizable",
    summary: "A class is declared virtual or exported",
    category: Category::Validation,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports `@class { ... }` and `@@class { ... }` (Puppet's `CLASS_NOT_VIRTUALIZABLE`).

## Why it matters
Classes cannot be virtual or exported; Puppet rejects the manifest.

## Example
```puppet
@class { 'ntp': }
```

## How to fix
Declare the class normally, or wrap what should be virtual in a defined type.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::Resource],
        visit: check_expr,
    }),
};

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Resource(r) = &expr.kind {
        if r.form != ResourceForm::Regular
            && matches!(&r.type_expr.kind, ExprKind::Name(n) if n == "class")
        {
            out.push(RULE.diagnostic(expr.span, "Classes are not virtualizable"));
        }
    }
}
