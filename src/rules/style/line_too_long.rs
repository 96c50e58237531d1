use crate::rules::{FileContext, Rule};
use crate::diagnostics::Diagnostic;
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// Reports lines longer than 140 characters (counted as characters, not bytes). Lines that
    /// hold a URL (`://`) or a `template(` call are exempt, as in puppet-lint. The limit is
    /// `line-length` in `pupcheck.toml`.
    ///
    /// ## Why it matters
    /// Long lines are hard to read and review, especially side by side in a diff.
    ///
    /// ## Example
    /// A resource attribute whose value is a long list written on one line.
    ///
    /// ## How to fix
    /// Break the line: one array element or hash entry per line, or build the value in a
    /// variable first.
    "line-too-long" (Style, Warning)
    "A line has more than 140 characters (or the configured `line-length`)"
    { puppet_lint: "140chars", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    report_long_lines(ctx, ctx.options.line_length, &RULE, out);
}

/// puppet-lint's line-length check (shared by its `140chars` and `80chars`): lines of
/// more than `limit` characters, except those holding a URL or a `template(` call,
/// reported from the limit's column to the end of the line.
pub(in crate::rules) fn report_long_lines(
    ctx: &FileContext,
    limit: usize,
    rule: &'static Rule,
    out: &mut Vec<Diagnostic>,
) {
    for (start, line) in ctx.source.each_line() {
        if line.len() <= limit || line.contains("://") || line.contains("template(") {
            continue;
        }
        let count = line.chars().count();
        if count <= limit {
            continue;
        }
        let offset = line
            .char_indices()
            .nth(limit - 1)
            .map(|(i, _)| i)
            .unwrap_or(line.len());
        out.push(rule.diagnostic(
            Span::new(start + offset as u32, start + line.len() as u32),
            format!("line has more than {limit} characters"),
        ));
    }
}
