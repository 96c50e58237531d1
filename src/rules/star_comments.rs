use super::{Category, FileContext, Rule};
use crate::ast::CommentKind;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "star-comments",
    summary: "A /* */ comment is used",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: Some("star_comments"),
    docs: "\
## What it does
Reports block comments written with `/* ... */`.

## Why it matters
The Puppet style guide asks for `#` comments only; tools that read documentation
comments (puppet-strings) only understand `#`.

## Example
```puppet
/* the web server */
include apache
```

## How to fix
Write each line as a `#` comment (`--fix` does).
",
    check: Some(check),
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for comment in &ctx.program.comments {
        if comment.kind == CommentKind::Block {
            out.push(RULE.diagnostic(comment.span, "/* */ comment found"));
        }
    }
}
