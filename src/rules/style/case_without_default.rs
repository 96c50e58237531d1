use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// Reports `case` expressions none of whose options is `default` (an array pattern holding
    /// `default`, such as `[default]`, counts as one, as in puppet-lint).
    ///
    /// ## Why it matters
    /// When no option matches, the case silently does nothing (and evaluates to `undef`); the
    /// style guide asks for an explicit default, even one that fails.
    ///
    /// ## Example
    /// ```puppet
    /// case $facts['os']['family'] {
    ///   'Debian': { include apt }
    ///   'RedHat': { include yum }
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Add `default: { }` or, better, `default: { fail("unsupported OS ${facts['os']['family']}") }`.
    "case-without-default" (Style, Warning)
    "A case statement has no default option"
    { puppet_lint: "case_without_default", on_expr: [Case] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Case(case) = &expr.kind {
        let has_default = case
            .options
            .iter()
            .any(|o| o.matchers.iter().any(names_default));
        if !has_default {
            let keyword = Span::new(expr.span.start, expr.span.start + "case".len() as u32);
            out
                .push(RULE.diagnostic(keyword, "case statement without a default case"));
        }
    }
}

/// Whether an option's matcher is `default` or an array pattern with `default` in it
/// (`[default]`, `[true, default]`): puppet-lint takes any `default` among the options
/// as the case's default, and `[default]` matches every one-element array.
fn names_default(matcher: &Expr) -> bool {
    match &matcher.kind {
        ExprKind::Default => true,
        ExprKind::Array(items) => items.iter().any(names_default),
        _ => false,
    }
}
