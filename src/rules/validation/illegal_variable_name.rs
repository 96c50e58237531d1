use crate::analysis::puppet_patterns;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports variables whose name does not match Puppet's rule (each namespace segment
    /// starts with a lowercase letter, the last may start with `_`), Puppet's
    /// `ILLEGAL_VAR_NAME`, and names starting with a digit that are not a decimal number
    /// (`ILLEGAL_NUMERIC_VAR_NAME`, such as `$01`).
    ///
    /// ## Why it matters
    /// Puppet's validator rejects the manifest.
    ///
    /// ## Example
    /// ```puppet
    /// $Port = 80
    /// ```
    ///
    /// ## How to fix
    /// Use a lowercase name: `$port`.
    "illegal-variable-name" (Validation, Error)
    "A variable name does not follow Puppet's naming rule"
    { on_expr: [Variable] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let ExprKind::Variable(name) = &expr.kind else {
        return;
    };
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        if !puppet_patterns::numeric_var_name().is_match(name) {
            out.push(RULE.diagnostic(
                expr.span,
                format!("Illegal numeric variable name, The given name '{name}' must be a decimal value if it starts with a digit 0-9"),
            ));
        }
    } else if !puppet_patterns::var_name().is_match(name) {
        out.push(RULE.diagnostic(
            expr.span,
            format!("Illegal variable name, The given name '{name}' does not conform to the naming rule /^((::)?[a-z]\\w*)*((::)?[a-z_]\\w*)$/"),
        ));
    }
}
