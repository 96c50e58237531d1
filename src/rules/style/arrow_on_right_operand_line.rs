use crate::analysis::relationship_arrows::arrows;
use crate::rules::FileContext;
use crate::ast::RelationOp;
use crate::diagnostics::{Diagnostic, Edit, Fix};
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// Reports `->` and `~>` at the end of a line when the right operand is on a later line.
    ///
    /// ## Why it matters
    /// The style guide puts the arrow on the line of the resource it applies to, so each line of
    /// a chain reads as "then this".
    ///
    /// ## Example
    /// ```puppet
    /// Package['demo'] ->
    /// Service['demo']
    /// ```
    ///
    /// ## How to fix
    /// Move the arrow: `Package['demo']` on one line, `-> Service['demo']` on the next.
    "arrow-on-right-operand-line" (Style, Warning)
    "A `->` or `~>` ends a line instead of starting the next"
    { fixable, puppet_lint: "arrow_on_right_operand_line", check }
}

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
            out.push(
                RULE.diagnostic(span, "arrow should be on the right operand's line")
                    .with_fix(move_arrow(text, span, at as u32)),
            );
        }
    }
}

/// puppet-lint's fix: the arrow moves to just before the right operand (followed by a
/// space), and the blanks between the left operand and the arrow go with it.
fn move_arrow(text: &str, arrow: Span, right_operand: u32) -> Fix {
    let blanks_start = text[..arrow.start as usize]
        .trim_end_matches([' ', '\t'])
        .len();
    let after_arrow = text[arrow.end as usize..].chars().next();
    let starts_line = blanks_start == 0 || text[..blanks_start].ends_with('\n');
    let deleted = if blanks_start < arrow.start as usize
        && !starts_line
        && after_arrow.is_some_and(char::is_whitespace)
    {
        Span::new(blanks_start as u32, arrow.end)
    } else {
        arrow
    };
    Fix::safe(vec![
        Edit {
            span: deleted,
            replacement: String::new(),
        },
        Edit {
            span: Span::at(right_operand),
            replacement: format!("{} ", &text[arrow.range()]),
        },
    ])
}
