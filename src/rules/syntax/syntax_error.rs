use crate::rules::{Category, Rule};
use crate::diagnostics::Severity;

/// Produced by the syntax layer (`src/syntax/errors.rs`).
pub static RULE: Rule = Rule {
    id: "syntax-error",
    summary: "The file does not parse as Puppet code",
    category: Category::Syntax,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports code that Puppet's parser rejects: a missing comma between attributes, an
unclosed brace or string, a heredoc without its end tag, a malformed EPP tag.

## Why it matters
`puppet parser validate` and every catalog compilation stop at the first syntax error,
so nothing in the file takes effect.

## Example
```puppet
file { '/etc/motd':
  ensure  => file
  content => 'hi',
}
```
Puppet says: `Syntax error at 'content'`.

## How to fix
Add what is missing where the diagnostic points; the label shows the bracket an unclosed
block was opened with.
",
    check: None,
    on_expr: None,
};
