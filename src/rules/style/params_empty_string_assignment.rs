use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind, StringStyle};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports class and defined type parameters typed `String...` or `Variant...` whose
    /// default is `''`, as the puppet-lint plugin `params_empty_string_assignment` does (off
    /// by default).
    ///
    /// ## Why it matters
    /// An empty string standing for "not set" is a value every user of the parameter has to
    /// test for; `Optional[String]` with `undef` says it in the type, and `String[1]` then
    /// rejects the empty string.
    ///
    /// ## Example
    /// ```puppet
    /// class demo (String $proxy = '') { }
    /// ```
    ///
    /// ## How to fix
    /// `Optional[String[1]] $proxy = undef`, and test for `undef` where it is used.
    "params-empty-string-assignment" (Style, Warning)
    "A `String` parameter defaults to the empty string"
    { off_by_default, puppet_lint: "params_empty_string_assignment", on_expr: [Class, Define] }
}

/// The type's first name, as the plugin compares it (`String[1]` is `String`).
fn type_name(t: &Expr) -> Option<&str> {
    match &t.kind {
        ExprKind::TypeRef(name) => Some(name),
        ExprKind::Access { object, .. } => type_name(object),
        _ => None,
    }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let params = match &expr.kind {
        ExprKind::Class(c) => &c.params,
        ExprKind::Define(d) => &d.params,
        _ => return,
    };
    for p in params.iter().flatten() {
        let typed = p
            .type_expr
            .as_ref()
            .and_then(type_name)
            .is_some_and(|n| n.starts_with("String") || n.starts_with("Variant"));
        let empty = p.default.as_ref().is_some_and(|d| {
            matches!(&d.kind, ExprKind::String(s) if s.value.is_empty() && s.style == StringStyle::SingleQuoted)
        });
        if typed && empty {
            out.push(RULE.diagnostic(
                p.name.span,
                "class parameter with String type defaults to empty string",
            ));
        }
    }
}
