use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports variables with uppercase letters in their name, parameters included.
    ///
    /// ## Why it matters
    /// Puppet variable names are lowercase; an uppercase first letter is even rejected
    /// (see `illegal-variable-name`).
    ///
    /// ## Example
    /// ```puppet
    /// $myVar = 1
    /// ```
    ///
    /// ## How to fix
    /// Use lowercase with underscores: `$my_var`.
    "variable-is-lowercase" (Style, Warning)
    "A variable name has an uppercase letter"
    {
        puppet_lint: "variable_is_lowercase",
        // Parameters are variables too (puppet-lint reads every `$name` token).
        on_expr: [Variable, Class, Define, Function, Plan, Call, MethodCall],
    }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let has_uppercase = |name: &str| name.chars().any(|c| c.is_ascii_uppercase());
    if let ExprKind::Variable(name) = &expr.kind {
        if has_uppercase(name) {
            out.push(RULE.diagnostic(expr.span, "variable contains an uppercase letter"));
        }
    }
    for param in expr.kind.declared_params() {
        if has_uppercase(&param.name.name) {
            out.push(RULE.diagnostic(param.name.span, "variable contains an uppercase letter"));
        }
    }
}
