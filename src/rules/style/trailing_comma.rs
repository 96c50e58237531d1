use crate::analysis::walks::each_expr;
use crate::rules::FileContext;
use crate::ast::{Attribute, ExprKind};
use crate::diagnostics::{Diagnostic, Fix};
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// Reports a missing comma after the last attribute of a resource (or of resource
    /// defaults), the last element of an array, or the last entry of a hash assigned,
    /// compared, passed as an attribute value or as a first argument, when the closing
    /// bracket is on a line of its own; as the puppet-lint plugin `trailing_comma` does (off
    /// by default).
    ///
    /// ## Why it matters
    /// The Puppet style guide asks for it: adding an element then changes one line, not two,
    /// and diffs show only what changed.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/etc/motd':
    ///   ensure => file
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Add the comma (the fix does).
    "trailing-comma" (Style, Warning)
    "The last element of a multi-line list has no comma after it"
    { off_by_default, fixable, puppet_lint: "trailing_comma", check }
}

/// The first code character at or after `from`, skipping blanks, comments and heredoc
/// bodies.
fn next_code(ctx: &FileContext, from: usize) -> Option<char> {
    ctx.source.text[from..]
        .char_indices()
        .map(|(i, c)| (from + i, c))
        .find(|&(at, c)| !c.is_whitespace() && ctx.code.is_code(at as u32))
        .map(|(_, c)| c)
}

/// The code before `at`, without blanks and comments, ends in one of the tokens the
/// plugin checks hashes after: `=`, `==`, `=>` or `(`.
fn checked_hash_position(ctx: &FileContext, at: usize) -> bool {
    let text = &ctx.source.text;
    let before = text[..at]
        .char_indices()
        .rev()
        .find(|&(i, c)| !c.is_whitespace() && ctx.code.is_code(i as u32))
        .map(|(i, c)| &text[..i + c.len_utf8()]);
    match before {
        Some(b) if b.ends_with("==") || b.ends_with("=>") || b.ends_with('(') => true,
        Some(b) => {
            b.ends_with('=') && !b.ends_with("!=") && !b.ends_with("<=") && !b.ends_with(">=")
        }
        None => false,
    }
}

/// Reports the element ending at `end` when no comma follows it and its line ends
/// right after it (the closing bracket is on a later line).
fn check_last(ctx: &FileContext, end: u32, out: &mut Vec<Diagnostic>) {
    let text = &ctx.source.text;
    let at = end as usize;
    let line_ends = text[at..].starts_with('\n') || text[at..].starts_with("\r\n");
    if line_ends && next_code(ctx, at) != Some(',') {
        let span = Span::at(end);
        out.push(
            RULE.diagnostic(span, "missing trailing comma after last element")
                .with_fix(Fix::replace(span, ",")),
        );
    }
}

fn last_attribute(attributes: &[Attribute]) -> Option<u32> {
    attributes.last().map(|a| a.value.span.end)
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let text = &ctx.source.text;
    each_expr(ctx, |expr| {
        let end = match &expr.kind {
            // Only the last body: one ended by `;` is not checked, as in the plugin.
            ExprKind::Resource(r) => r.bodies.last().and_then(|b| {
                let closes = next_code(ctx, b.span.end as usize).is_none_or(|c| c != ';')
                    && !text[b.span.range()].trim_end().ends_with(';');
                closes.then(|| last_attribute(&b.attributes)).flatten()
            }),
            ExprKind::ResourceDefaults(d) => last_attribute(&d.attributes),
            ExprKind::Array(items) => items.last().map(|i| i.span.end),
            ExprKind::Hash(entries) if checked_hash_position(ctx, expr.span.start as usize) => {
                entries.last().map(|e| e.value.span.end)
            }
            _ => None,
        };
        if let Some(end) = end {
            check_last(ctx, end, out);
        }
    });
}
