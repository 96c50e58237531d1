use crate::rules::FileContext;
use crate::diagnostics::{Diagnostic, Fix};
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// Reports whitespace at the end of a line of code, including lines that hold nothing but
    /// whitespace. Whitespace inside strings, heredocs and comments is part of them and is not
    /// reported (as in puppet-lint).
    ///
    /// ## Why it matters
    /// The Puppet style guide forbids it: it produces noisy diffs and merge conflicts.
    ///
    /// ## Example
    /// ```puppet
    /// $a = 1␠␠
    /// ```
    ///
    /// ## How to fix
    /// Delete it (`--fix` does). puppet-lint reports this as an error; pupcheck as a warning,
    /// because the catalog is not affected.
    "trailing-whitespace" (Style, Warning)
    "A line ends with spaces or tabs"
    { fixable, puppet_lint: "trailing_whitespace", check }
}

fn is_blank(c: char) -> bool {
    c == '\t' || c == '\u{b}' || c == '\u{c}' || (c.is_whitespace() && c != '\n' && c != '\r')
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for (start, line) in ctx.source.each_line() {
        let trimmed = line.trim_end_matches(is_blank);
        if trimmed.len() == line.len() {
            continue;
        }
        let at = start + trimmed.len() as u32;
        if !ctx.code.is_code(at) {
            continue;
        }
        let span = Span::new(at, start + line.len() as u32);
        out.push(
            RULE.diagnostic(span, "trailing whitespace found")
                .with_fix(Fix::replace(span, "")),
        );
    }
}
