use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a second `default` option in a `case` expression or selector (Puppet's
    /// `DUPLICATE_DEFAULT`).
    ///
    /// ## Why it matters
    /// Puppet's validator rejects it; the second default could never be reached.
    ///
    /// ## Example
    /// ```puppet
    /// $port = $proto ? { 'https' => 443, default => 80, default => 8080 }
    /// ```
    ///
    /// ## How to fix
    /// Keep one `default`.
    "duplicate-default" (Validation, Error)
    "A case or selector has more than one `default`"
    { on_expr: [Case, Selector] }
}

fn report(out: &mut Vec<Diagnostic>, defaults: &[&Expr], container: &str) {
    if let [first, second, ..] = defaults {
        out.push(
            RULE.diagnostic(
                second.span,
                format!("This {container} already has a 'default' entry - this is a duplicate"),
            )
            .with_label(first.span, "the first default"),
        );
    }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match &expr.kind {
    ExprKind::Case(case) => {
        let defaults: Vec<&Expr> = case
            .options
            .iter()
            .flat_map(|o| &o.matchers)
            .filter(|m| matches!(m.kind, ExprKind::Default))
            .collect();
        report(out, &defaults, "Case Expression");
    }
    ExprKind::Selector { entries, .. } => {
        let defaults: Vec<&Expr> = entries
            .iter()
            .map(|e| &e.matcher)
            .filter(|m| matches!(m.kind, ExprKind::Default))
            .collect();
        report(out, &defaults, "Selector Expression");
    }
    _ => {}
    }
}
