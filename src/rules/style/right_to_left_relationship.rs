use crate::analysis::relationship_arrows::arrows;
use crate::rules::{Category, FileContext, Rule};
use crate::ast::RelationOp;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "right-to-left-relationship",
    summary: "A right-to-left relationship (`<-`) is used",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: Some("right_to_left_relationship"),
    docs: "\
## What it does
Reports the `<-` relationship operator.

## Why it matters
Chains read left to right; `<-` reverses the order and is easy to misread.

## Example
```puppet
Service['demo'] <- Package['demo']
```

## How to fix
Write `Package['demo'] -> Service['demo']`.
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for (op, span) in arrows(ctx) {
        if op == RelationOp::Require {
            out.push(RULE.diagnostic(span, "right-to-left (<-) relationship"));
        }
    }
}
