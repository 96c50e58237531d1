use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a variable immediately followed by `-` and a word (`$foo-bar`).
    ///
    /// ## Why it matters
    /// Dashes are not part of variable names: `$foo-bar` is `$foo` minus `bar` in code, and
    /// `$foo` followed by the text `-bar` in a string; either way not what it looks like.
    ///
    /// ## Example
    /// ```puppet
    /// $name = "${prefix}-$app-name"
    /// ```
    ///
    /// ## How to fix
    /// Use underscores in names (`$app_name`) and braces in strings (`${app}-name`).
    "variable-contains-dash" (Style, Warning)
    "A variable name seems to contain a dash"
    { puppet_lint: "variable_contains_dash", on_expr: [Variable] }
}

fn check_expr(ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let text = ctx.source.text.as_bytes();
    if let ExprKind::Variable(_) = &expr.kind {
        let end = expr.span.end as usize;
        let dash_word = text.get(end) == Some(&b'-')
            && text
                .get(end + 1)
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
        // `${x}-y` is fine: the brace closes the name.
        if dash_word && text.get(expr.span.start as usize) == Some(&b'$') {
            out.push(RULE.diagnostic(expr.span, "variable contains a dash"));
        }
    }
}
