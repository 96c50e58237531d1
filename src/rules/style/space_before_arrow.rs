use crate::analysis::resource_tokens::TokenKind;
use crate::rules::FileContext;
use crate::diagnostics::{Diagnostic, Fix};
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// In a resource body whose arrows all stand on one line (a one-line body, or a body with a
    /// single attribute), reports each `=>` not preceded by exactly one space, as puppet-lint
    /// 4.3's `space_before_arrow` does. Bodies over several lines are arrow-alignment's.
    ///
    /// ## Why it matters
    /// Where there is nothing to align with, the style guide wants one space before the arrow;
    /// padding left over from a removed attribute only looks like a misalignment.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/etc/motd':
    ///   ensure  => file,
    /// }
    /// ```
    ///
    /// ## How to fix
    /// One space before the arrow (the fix makes it so).
    "space-before-arrow" (Style, Warning)
    "A `=>` in a one-line resource body is not preceded by exactly one space"
    { fixable, puppet_lint: "space_before_arrow", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let text = &ctx.source.text;
    for tokens in ctx.resource_body_tokens() {
        let arrows: Vec<usize> = (0..tokens.len())
            .filter(|&i| tokens[i].kind == TokenKind::Arrow)
            .collect();
        let (Some(&first), Some(&last)) = (arrows.first(), arrows.last()) else {
            continue;
        };
        let line = |at: u32| ctx.source.position(at).line;
        if line(tokens[first].span.start) != line(tokens[last].span.start) {
            continue;
        }
        for &i in &arrows {
            let Some(before) = i.checked_sub(1).map(|j| &tokens[j]) else {
                continue;
            };
            let arrow = tokens[i].span;
            let blanks = Span::new(before.span.end, arrow.start);
            let between = &text[blanks.range()];
            // A line break before the arrow is a layout of its own, not padding.
            if between == " " || between.contains(['\n', '\r']) {
                continue;
            }
            // puppet-lint points at the blanks, or at the name when there are none.
            let at = if between.is_empty() {
                before.span.start
            } else {
                blanks.start
            };
            let position = ctx.source.position(at);
            out.push(
                RULE.diagnostic(
                    Span::new(at, arrow.start.max(at + 1)),
                    format!(
                        "there should be a single space before '=>' on line {}, column {}",
                        position.line, position.column
                    ),
                )
                .with_fix(Fix::replace(blanks, " ")),
            );
        }
    }
}
