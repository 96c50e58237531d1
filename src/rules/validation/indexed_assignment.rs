use crate::analysis::text::*;
use crate::rules::{Category, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "indexed-assignment",
    summary: "An element of an array or hash is assigned",
    category: Category::Validation,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports `$x[key] = value` (Puppet's `ILLEGAL_INDEXED_ASSIGNMENT`).

## Why it matters
Values are immutable in Puppet: an element cannot be replaced, and the manifest is
rejected.

## Example
```puppet
$settings[port] = 8080
```

## How to fix
Build a new value: `$new = $settings + { 'port' => 8080 }`.
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_assignment(ctx, |_, left| {
        for target in assignment_targets(left) {
            if matches!(target.kind, ExprKind::Access { .. }) {
                out.push(RULE.diagnostic(
                    target.span,
                    "Illegal attempt to assign via [index/key]. Not an assignable reference",
                ));
            }
        }
    });
}
