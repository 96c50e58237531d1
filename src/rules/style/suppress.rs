//! Suppression comments: pupcheck's own and puppet-lint's control comments.
//!
//! - `# pupcheck:ignore:<rule>` (or `# lint:ignore:<check>`) at the end of a line of code
//!   suppresses that rule on that line;
//! - the same comment alone on its line opens a block that `# pupcheck:endignore` (or
//!   `# lint:endignore`) closes (or the end of the file);
//! - several names may follow (`# lint:ignore:140chars lint:ignore:hard_tabs`), then
//!   free text, the reason.
//!
//! puppet-lint check names map to rules through each rule's `puppet_lint` name. A
//! suppression that suppresses nothing is reported, as ruff reports an unused `noqa`;
//! names of puppet-lint checks pupcheck does not implement (plugins) are left alone.

use crate::rules::{find, Category, FileContext, Rule};
use crate::ast::CommentKind;
use crate::diagnostics::{Diagnostic, Severity};
use crate::source::Span;

pub static RULE: Rule = Rule {
    id: "unused-suppression",
    summary: "A suppression comment suppresses nothing",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports a `# pupcheck:ignore:<rule>` or `# lint:ignore:<check>` comment that suppresses
no finding, and a `pupcheck:ignore` naming a rule that does not exist.

## Why it matters
Stale suppressions hide the next real problem on that line and mislead readers.

## Example
```puppet
$a = 1 # lint:ignore:140chars
```

## How to fix
Remove the comment, or correct the rule name (`pupcheck rules` lists them).
",
    check: None,
    on_expr: None,
};

struct Suppression {
    /// Rule ids, with the name as written (for messages) and whether it was used.
    names: Vec<(Option<&'static str>, String, bool)>,
    /// 1-based inclusive line range.
    first_line: u32,
    last_line: u32,
    comment: Span,
}

/// Reads the suppressions of a file.
fn collect(ctx: &FileContext) -> (Vec<Suppression>, Vec<Diagnostic>) {
    let mut found: Vec<Suppression> = Vec::new();
    let mut problems = Vec::new();
    let mut open_blocks: Vec<usize> = Vec::new();
    let text = &ctx.source.text;
    for comment in ctx
        .program
        .comments
        .iter()
        .filter(|c| c.kind == CommentKind::Hash)
    {
        let body = text[comment.span.range()].trim_start_matches('#').trim();
        // Most comments are prose: only these begin a control comment.
        if !(body.starts_with("lint:") || body.starts_with("pupcheck:")) {
            continue;
        }
        let line = ctx.source.position(comment.span.start).line;
        if body.starts_with("lint:endignore") || body.starts_with("pupcheck:endignore") {
            if let Some(i) = open_blocks.pop() {
                found[i].last_line = line;
            }
            continue;
        }
        let mut names = Vec::new();
        for word in body.split_whitespace() {
            let name = word
                .strip_prefix("lint:ignore:")
                .map(|n| (n, false))
                .or_else(|| word.strip_prefix("pupcheck:ignore:").map(|n| (n, true)));
            let Some((name, ours)) = name else { break };
            match find(name) {
                Some(rule) => names.push((Some(rule.id), name.to_string(), false)),
                None if ours => problems.push(RULE.diagnostic(
                    comment.span,
                    format!("`{name}` is not a pupcheck rule (see `pupcheck rules`)"),
                )),
                None => names.push((None, name.to_string(), false)),
            }
        }
        if names.is_empty() {
            continue;
        }
        let line_start = ctx.source.lines.line_start(line as usize - 1).unwrap_or(0);
        let code_before = text[line_start as usize..comment.span.start as usize]
            .chars()
            .any(|c| !c.is_whitespace());
        found.push(Suppression {
            names,
            first_line: line,
            last_line: if code_before { line } else { u32::MAX },
            comment: comment.span,
        });
        if !code_before {
            open_blocks.push(found.len() - 1);
        }
    }
    (found, problems)
}

/// Removes suppressed diagnostics and adds the unused-suppression findings.
/// The lines where a comment suppresses the rule `rule_id`.
pub fn suppressed_lines(ctx: &FileContext, rule_id: &str) -> Vec<std::ops::RangeInclusive<u32>> {
    collect(ctx)
        .0
        .iter()
        .filter(|s| s.names.iter().any(|(id, _, _)| *id == Some(rule_id)))
        .map(|s| s.first_line..=s.last_line)
        .collect()
}

pub fn apply(ctx: &FileContext, diagnostics: &mut Vec<Diagnostic>) {
    let (mut suppressions, mut problems) = collect(ctx);
    if suppressions.is_empty() && problems.is_empty() {
        return;
    }
    diagnostics.retain(|d| {
        if crate::diagnostics::rule_ids::ALWAYS_REPORTED.contains(&d.rule) {
            return true;
        }
        let line = ctx.source.position(d.span.start).line;
        let mut keep = true;
        for s in suppressions
            .iter_mut()
            .filter(|s| s.first_line <= line && line <= s.last_line)
        {
            for (id, _, used) in s.names.iter_mut() {
                if *id == Some(d.rule) {
                    *used = true;
                    keep = false;
                }
            }
        }
        keep
    });
    let rules = &ctx.settings.rules;
    for s in suppressions.iter().filter(|_| rules.is_enabled(&RULE)) {
        for (id, name, used) in &s.names {
            let enabled = id
                .and_then(find)
                .is_some_and(|r| rules.is_enabled(r) && r.checks_files());
            if !used && enabled {
                problems.push(RULE.diagnostic(
                    s.comment,
                    format!("this suppression of `{name}` suppresses nothing"),
                ));
            }
        }
    }
    diagnostics.extend(problems);
}
