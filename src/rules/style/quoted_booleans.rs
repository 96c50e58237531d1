use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind, StringStyle};
use crate::diagnostics::{Applicability, Diagnostic, Edit, Fix};

declare_rule! {
    /// ## What it does
    /// Reports `'true'`, `'false'`, `"true"` and `"false"` (off by default, as in puppet-lint).
    ///
    /// ## Why it matters
    /// The string `'false'` is truthy in Puppet: `if 'false' { }` runs its block. A quoted
    /// boolean is almost always a boolean meant.
    ///
    /// ## Example
    /// ```puppet
    /// service { 'ntp': enable => 'true' }
    /// ```
    ///
    /// ## How to fix
    /// Write the boolean: `enable => true`. The fix does that; it is unsafe (applied only with
    /// `--unsafe-fixes`) because a string and a boolean are different values: code comparing
    /// with `'true'` or a type expecting a String changes behaviour.
    "quoted-booleans" (Style, Warning)
    "A string holds only `true` or `false`"
    { off_by_default, fixable, puppet_lint: "quoted_booleans", on_expr: [String] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::String(s) = &expr.kind {
        let quoted = matches!(
            s.style,
            StringStyle::SingleQuoted | StringStyle::DoubleQuoted
        );
        if quoted && (s.value == "true" || s.value == "false") {
            out.push(
                RULE.diagnostic(expr.span, "quoted boolean value found")
                    .with_fix(Fix {
                        edits: vec![Edit {
                            span: expr.span,
                            replacement: s.value.clone(),
                        }],
                        applicability: Applicability::Unsafe,
                    }),
            );
        }
    }
}
