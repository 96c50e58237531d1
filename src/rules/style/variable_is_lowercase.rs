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
    reads_interpretation: false,
    puppet_lint: Some("variable_is_lowercase"),
    docs: "\
## What it does
Reports variables with uppercase letters in their name, parameters included.

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
        kinds: &[
            ExprTag::Variable,
            // Parameters are variables too (puppet-lint reads every `$name` token).
            ExprTag::Class,
            ExprTag::Define,
            ExprTag::Function,
            ExprTag::Plan,
            ExprTag::Call,
            ExprTag::MethodCall,
        ],
        visit: check_expr,
    }),
};

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let has_uppercase = |name: &str| name.chars().any(|c| c.is_ascii_uppercase());
    if let ExprKind::Variable(name) = &expr.kind {
        if has_uppercase(name) {
            out.push(RULE.diagnostic(expr.span, "variable contains an uppercase letter"));
        }
    }
    for param in expr.kind.declared_params() {
        if has_uppercase(&param.name.name) {
            out.push(RULE.diagnostic(param.name.span, "variable contains an uppercase letter"));
        }
    }
}
