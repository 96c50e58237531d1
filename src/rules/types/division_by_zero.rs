use crate::rules::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Severity};
use crate::eval::FailureKind;

pub static RULE: Rule = Rule {
    id: "division-by-zero",
    summary: "A division or modulo by zero",
    category: Category::Type,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: true,
    puppet_lint: None,
    docs: "\
## What it does
Reports a division or a modulo whose divisor is zero for every value that can reach it,
also when the zero comes through variables (`$n = 0` ... `100 / $n`). Puppet fails
with \"Division by 0\" for integers and \"The result of the / expression is Infinity\"
for floats.

## Why it matters
The catalog does not compile: the node gets no new configuration until the code is
fixed.

## Example
```puppet
$workers = 0
$share = 100 / $workers
```

## How to fix
Guard the division (`if $workers > 0 { ... }`) or give the divisor a value that is not
zero.
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    RULE.report_failures(ctx, FailureKind::DivisionByZero, out);
}
