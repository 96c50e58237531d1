use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// Reports a `class` or `define` definition without a comment directly above it (on the
    /// line before, no blank line in between).
    ///
    /// ## Why it matters
    /// Classes and defined types are a module's interface; puppet-strings builds the module's
    /// reference from these comments.
    ///
    /// ## Example
    /// ```puppet
    /// class demo {
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Describe it in a comment right above, in puppet-strings form:
    /// `# @summary Installs and configures demo.`
    "documentation" (Documentation, Warning)
    "A class or defined type has no comment right above it"
    { puppet_lint: "documentation", on_expr: [Class, Define] }
}

/// Whether a comment ends right before `start`, with at most one line break between.
fn documented(ctx: &FileContext, start: u32) -> bool {
    let before = &ctx.source.text[..start as usize];
    let trimmed = before.trim_end_matches([' ', '\t', '\r', '\n', '\u{b}', '\u{c}']);
    if before[trimmed.len()..].matches('\n').count() > 1 {
        return false;
    }
    // The last character before the whitespace must belong to a comment (whose span may
    // run past it over trailing blanks).
    let last = trimmed.len() as u32;
    ctx.program
        .comments
        .iter()
        .any(|c| c.span.start < last && last <= c.span.end)
}

fn check_expr(ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let (keyword, what) = match &expr.kind {
        ExprKind::Class(_) => ("class", "class"),
        ExprKind::Define(_) => ("define", "defined type"),
        _ => return,
    };
    if !documented(ctx, expr.span.start) {
        out.push(RULE.diagnostic(
            Span::new(expr.span.start, expr.span.start + keyword.len() as u32),
            format!("{what} not documented"),
        ));
    }
}
