use crate::rules::FileContext;
use crate::diagnostics::{Diagnostic, Fix};
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// Reports tab characters in the whitespace between code (indentation included). Tabs in
    /// strings, heredocs and comments are not reported (as in puppet-lint).
    ///
    /// ## Why it matters
    /// The Puppet style guide asks for two-space soft tabs; tabs render differently in every
    /// editor and break alignment.
    ///
    /// ## Example
    /// ```puppet
    /// class demo {
    /// → include demo::install
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Replace each tab with two spaces (`--fix` does).
    "hard-tabs" (Style, Warning)
    "A tab character is used for whitespace"
    { fixable, puppet_lint: "hard_tabs", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let text = &ctx.source.text;
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(found) = text[i..].find('\t') {
        let at = i + found;
        // One finding per run of whitespace, at its start, as puppet-lint reports
        // whitespace tokens.
        let mut start = at;
        while start > 0 && matches!(bytes[start - 1], b' ' | b'\t') {
            start -= 1;
        }
        let mut end = at;
        while end < bytes.len() && matches!(bytes[end], b' ' | b'\t') {
            end += 1;
        }
        if ctx.code.is_code(at as u32) {
            let span = Span::new(start as u32, end as u32);
            let spaces = text[span.range()].replace('\t', "  ");
            out.push(
                RULE.diagnostic(span, "tab character found")
                    .with_fix(Fix::replace(span, spaces)),
            );
        }
        i = end;
    }
}
