use crate::rules::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Fix, Severity};
use crate::source::Span;

pub static RULE: Rule = Rule {
    id: "hard-tabs",
    summary: "A tab character is used for whitespace",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: true,
    reads_interpretation: false,
    puppet_lint: Some("hard_tabs"),
    docs: "\
## What it does
Reports tab characters in the whitespace between code (indentation included). Tabs in
strings, heredocs and comments are not reported (as in puppet-lint).

## Why it matters
The Puppet style guide asks for two-space soft tabs; tabs render differently in every
editor and break alignment.

## Example
```puppet
class demo {
→ include demo::install
}
```

## How to fix
Replace each tab with two spaces (`--fix` does).
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let text = &ctx.source.text;
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(found) = text[i..].find('\t') {
        let at = i + found;
        // One finding per run of whitespace, at its start, as puppet-lint reports
        // whitespace tokens.
        let mut start = at;
        while start > 0 && matches!(bytes[start - 1], b' ' | b'\t') {
            start -= 1;
        }
        let mut end = at;
        while end < bytes.len() && matches!(bytes[end], b' ' | b'\t') {
            end += 1;
        }
        if ctx.code.is_code(at as u32) {
            let span = Span::new(start as u32, end as u32);
            let spaces = text[span.range()].replace('\t', "  ");
            out.push(
                RULE.diagnostic(span, "tab character found")
                    .with_fix(Fix::replace(span, spaces)),
            );
        }
        i = end;
    }
}
