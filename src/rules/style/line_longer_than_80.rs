use crate::rules::style::line_too_long::report_long_lines;
use crate::rules::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "line-longer-than-80",
    summary: "A line has more than 80 characters",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: false,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: Some("80chars"),
    docs: "\
## What it does
Reports lines longer than 80 characters, with the same exemptions as `line-too-long`
(lines holding a URL or a `template(` call). Off by default, as in puppet-lint, whose
style guide moved to 140 characters; teams that keep 80 enable it (or set
`line-length = 80` for `line-too-long`).

## Why it matters
Some teams review code in narrow terminals or side by side.

## Example
A resource attribute whose value is a long list written on one line.

## How to fix
Break the line: one array element or hash entry per line.
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    report_long_lines(ctx, 80, &RULE, out);
}
