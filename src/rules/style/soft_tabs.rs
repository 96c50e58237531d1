use crate::rules::FileContext;
use crate::diagnostics::Diagnostic;
use crate::source::{SourceKind, Span};

declare_rule! {
    /// ## What it does
    /// Reports a line of code (not a line inside a string, heredoc or comment) whose
    /// indentation has an odd length.
    ///
    /// ## Why it matters
    /// The style guide indents by two spaces; odd indentation usually means a misaligned block.
    ///
    /// ## Example
    /// ```puppet
    /// class demo {
    ///    include demo::install
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Indent by a multiple of two spaces.
    "two-space-soft-tabs" (Style, Warning)
    "A line of code is indented by an odd number of spaces"
    { puppet_lint: "2sp_soft_tabs", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    if ctx.source.kind != SourceKind::Manifest {
        return;
    }
    // The first line has no line break before it, so puppet-lint sees no indentation.
    for (start, line) in ctx.source.each_line().skip(1) {
        let indent = line.len() - line.trim_start_matches([' ', '\t', '\u{b}', '\u{c}']).len();
        if indent % 2 == 1 && ctx.code.is_code(start) {
            out.push(RULE.diagnostic(
                Span::new(start, start + indent as u32),
                "two-space soft tabs not used",
            ));
        }
    }
}
