use crate::rules::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Severity};
use crate::eval::FailureKind;

pub static RULE: Rule = Rule {
    id: "conversion",
    summary: "A conversion that cannot succeed (`Integer('eighty')`)",
    category: Category::Type,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: true,
    puppet_lint: None,
    docs: "\
## What it does
Reports a call of a type (`Integer(...)`, `Numeric(...)`, `Float(...)`,
`Boolean(...)`, `SemVer(...)`, `Timespan(...)`, or `Type.new(...)`) whose argument,
as the code gives it, cannot be converted: `Integer('eighty')`, `Boolean('maybe')`.
The message is Puppet's.

## Why it matters
The catalog does not compile: the node gets no new configuration until the code is
fixed.

## Example
```puppet
$text = '80 80'
$port = Integer($text)
```

## How to fix
Convert text that holds what the type reads (`'8080'`), or check it first
(`$text =~ /\\A\\d+\\z/`).
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    RULE.report_failures(ctx, FailureKind::Conversion, out);
}
