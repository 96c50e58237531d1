use crate::rules::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Severity};
use crate::eval::FailureKind;

pub static RULE: Rule = Rule {
    id: "selector-no-match",
    summary: "A selector whose subject matches none of its entries",
    category: Category::Type,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: true,
    puppet_lint: None,
    docs: "\
## What it does
Reports a selector (`$x ? { ... }`) without a `default` entry whose subject, as the
code fixes it, matches none of the entries. Puppet fails with \"No matching entry for
selector parameter with value ...\".

## Why it matters
The catalog does not compile: the node gets no new configuration until the code is
fixed.

## Example
```puppet
$release = 'trixie'
$codename = $release ? {
  'bookworm' => 12,
  'bullseye' => 11,
}
```

## How to fix
Add the missing entry, or a `default` entry for the values not listed.
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    RULE.report_failures(ctx, FailureKind::SelectorNoMatch, out);
}
