use crate::analysis::names::earlier_duplicates;
use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a key that appears twice in one hash literal, when both are literal values
    /// (`'a'`, `a`, `1`, `true`). Puppet's validator warns (`DUPLICATE_KEY`, an error with
    /// `strict=error`).
    ///
    /// ## Why it matters
    /// The later entry silently wins; the first is dead code and usually a copy-paste mistake.
    ///
    /// ## Example
    /// ```puppet
    /// $limits = { 'nofile' => 1024, 'nofile' => 65536 }
    /// ```
    ///
    /// ## How to fix
    /// Remove one of the entries.
    "duplicate-key" (Validation, Warning)
    "A hash literal has the same key twice"
    { on_expr: [Hash] }
}

/// The literal value of a key, as Puppet's validator compares them.
fn literal(e: &Expr) -> Option<String> {
    Some(match &e.kind {
        ExprKind::String(s) => format!("s:{}", s.value),
        ExprKind::Name(n) => format!("s:{n}"),
        ExprKind::Integer(i) => format!("i:{i}"),
        ExprKind::Float(f) => format!("f:{f}"),
        ExprKind::Boolean(b) => format!("b:{b}"),
        ExprKind::Undef => "undef".into(),
        ExprKind::Default => "default".into(),
        _ => return None,
    })
}

fn shown(e: &Expr) -> String {
    match &e.kind {
        ExprKind::String(s) => s.value.clone(),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Integer(i) => i.to_string(),
        ExprKind::Float(f) => f.to_string(),
        ExprKind::Boolean(b) => b.to_string(),
        ExprKind::Undef => "undef".into(),
        _ => "default".into(),
    }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let ExprKind::Hash(entries) = &expr.kind else {
        return;
    };
    let earlier = earlier_duplicates(entries, |e| literal(&e.key));
    for (entry, first) in entries.iter().zip(earlier) {
        if let Some(first) = first.map(|f| &entries[f]) {
            out.push(
                RULE.diagnostic(
                    entry.key.span,
                    format!("The key '{}' is declared more than once", shown(&entry.key)),
                )
                .with_label(first.key.span, "first declared here"),
            );
        }
    }
}
