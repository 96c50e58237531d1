use crate::rules::style::line_too_long::report_long_lines;
use crate::rules::FileContext;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports lines longer than 80 characters, with the same exemptions as `line-too-long`
    /// (lines holding a URL or a `template(` call). Off by default, as in puppet-lint, whose
    /// style guide moved to 140 characters; teams that keep 80 enable it (or set
    /// `line-length = 80` for `line-too-long`).
    ///
    /// ## Why it matters
    /// Some teams review code in narrow terminals or side by side.
    ///
    /// ## Example
    /// A resource attribute whose value is a long list written on one line.
    ///
    /// ## How to fix
    /// Break the line: one array element or hash entry per line.
    "line-longer-than-80" (Style, Warning)
    "A line has more than 80 characters"
    { off_by_default, puppet_lint: "80chars", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    report_long_lines(ctx, 80, &RULE, out);
}
