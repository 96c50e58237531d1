use crate::rules::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Fix, Severity};
use crate::source::Span;

pub static RULE: Rule = Rule {
    id: "trailing-whitespace",
    summary: "A line ends with spaces or tabs",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: true,
    reads_interpretation: false,
    puppet_lint: Some("trailing_whitespace"),
    docs: "\
## What it does
Reports whitespace at the end of a line of code, including lines that hold nothing but
whitespace. Whitespace inside strings, heredocs and comments is part of them and is not
reported (as in puppet-lint).

## Why it matters
The Puppet style guide forbids it: it produces noisy diffs and merge conflicts.

## Example
```puppet
$a = 1␠␠
```

## How to fix
Delete it (`--fix` does). puppet-lint reports this as an error; pupcheck as a warning,
because the catalog is not affected.
",
    check: Some(check),
    on_expr: None,
};

fn is_blank(c: char) -> bool {
    c == '\t' || c == '\u{b}' || c == '\u{c}' || (c.is_whitespace() && c != '\n' && c != '\r')
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for (start, line) in ctx.source.each_line() {
        let trimmed = line.trim_end_matches(is_blank);
        if trimmed.len() == line.len() {
            continue;
        }
        let at = start + trimmed.len() as u32;
        if !ctx.code.is_code(at) {
            continue;
        }
        let span = Span::new(at, start + line.len() as u32);
        out.push(
            RULE.diagnostic(span, "trailing whitespace found")
                .with_fix(Fix::replace(span, "")),
        );
    }
}
