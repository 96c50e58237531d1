use super::relationship_arrows::arrows;
use super::{Category, FileContext, Rule};
use crate::ast::RelationOp;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "arrow-on-right-operand-line",
    summary: "A `->` or `~>` ends a line instead of starting the next",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: Some("arrow_on_right_operand_line"),
    docs: "\
## What it does
Reports `->` and `~>` at the end of a line when the right operand is on a later line.

## Why it matters
The style guide puts the arrow on the line of the resource it applies to, so each line of
a chain reads as \"then this\".

## Example
```puppet
Package['demo'] ->
Service['demo']
```

## How to fix
Move the arrow: `Package['demo']` on one line, `-> Service['demo']` on the next.
",
    check: Some(check),
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let text = &ctx.source.text;
    for (op, span) in arrows(ctx) {
        if !matches!(op, RelationOp::Before | RelationOp::Notify) {
            continue;
        }
        // The next code after the arrow: skip blanks, line breaks and comments.
        let mut at = span.end as usize;
        let mut crossed_line = false;
        while at < text.len() {
            let c = text[at..].chars().next().unwrap();
            if c == '\n' {
                crossed_line = true;
            } else if !c.is_whitespace() && ctx.code.is_code(at as u32) {
                break;
            }
            at += c.len_utf8();
        }
        if crossed_line {
            out.push(RULE.diagnostic(span, "arrow should be on the right operand's line"));
        }
    }
}
