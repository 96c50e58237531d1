use crate::rules::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Severity};
use crate::source::{SourceKind, Span};

pub static RULE: Rule = Rule {
    id: "two-space-soft-tabs",
    summary: "A line of code is indented by an odd number of spaces",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: Some("2sp_soft_tabs"),
    docs: "\
## What it does
Reports a line of code (not a line inside a string, heredoc or comment) whose
indentation has an odd length.

## Why it matters
The style guide indents by two spaces; odd indentation usually means a misaligned block.

## Example
```puppet
class demo {
   include demo::install
}
```

## How to fix
Indent by a multiple of two spaces.
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    if ctx.source.kind != SourceKind::Manifest {
        return;
    }
    // The first line has no line break before it, so puppet-lint sees no indentation.
    for (start, line) in ctx.source.each_line().skip(1) {
        let indent = line.len() - line.trim_start_matches([' ', '\t', '\u{b}', '\u{c}']).len();
        if indent % 2 == 1 && ctx.code.is_code(start) {
            out.push(RULE.diagnostic(
                Span::new(start, start + indent as u32),
                "two-space soft tabs not used",
            ));
        }
    }
}
