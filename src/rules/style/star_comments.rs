use crate::rules::FileContext;
use crate::ast::CommentKind;
use crate::diagnostics::{Diagnostic, Fix};
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// Reports block comments written with `/* ... */`.
    ///
    /// ## Why it matters
    /// The Puppet style guide asks for `#` comments only; tools that read documentation
    /// comments (puppet-strings) only understand `#`.
    ///
    /// ## Example
    /// ```puppet
    /// /* the web server */
    /// include apache
    /// ```
    ///
    /// ## How to fix
    /// Write each line as a `#` comment (`--fix` does).
    "star-comments" (Style, Warning)
    "A /* */ comment is used"
    { fixable, puppet_lint: "star_comments", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for comment in &ctx.program.comments {
        if comment.kind == CommentKind::Block {
            let diagnostic = RULE.diagnostic(comment.span, "/* */ comment found");
            out.push(if code_follows(ctx, comment.span) {
                // As a `#` comment it would swallow the code (puppet-lint's fix does).
                diagnostic
            } else {
                diagnostic.with_fix(Fix::replace(comment.span, hash_comment(ctx, comment.span)))
            });
        }
    }
}

/// Whether code follows the comment on its last line.
fn code_follows(ctx: &FileContext, span: Span) -> bool {
    let text = &ctx.source.text;
    let end = span.end as usize;
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    text[end..line_end]
        .char_indices()
        .any(|(i, c)| !c.is_whitespace() && ctx.code.is_code((end + i) as u32))
}

/// puppet-lint's fix: one `#` comment a line of the block, trimmed, each further line
/// indented like the block's first. (puppet-lint also "indents" by a line break when the
/// block starts a line, which adds blank lines, and leaves `# ` on empty lines; pupcheck
/// does neither.)
fn hash_comment(ctx: &FileContext, span: Span) -> String {
    let text = &ctx.source.text;
    let raw = &text[span.range()];
    let inner = raw
        .strip_prefix("/*")
        .unwrap_or(raw)
        .strip_suffix("*/")
        .unwrap_or(raw);
    let before = &text[..span.start as usize];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let indent: String = before[line_start..]
        .chars()
        .rev()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let indent: String = indent.chars().rev().collect();
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    inner
        .trim()
        .lines()
        .map(|line| match line.trim() {
            "" => "#".to_string(),
            line => format!("# {line}"),
        })
        .collect::<Vec<_>>()
        .join(&format!("{newline}{indent}"))
}
