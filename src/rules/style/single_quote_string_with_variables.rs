use crate::analysis::walks::each_expr;
use crate::rules::FileContext;
use crate::ast::{ExprKind, StringStyle};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports single-quoted strings that contain `${`, except the template given to
    /// `inline_epp` and `inline_template` (which interpolate it themselves).
    ///
    /// ## Why it matters
    /// Single quotes never interpolate: the text `${name}` ends up literally in the file or
    /// command, which is almost always a mistake.
    ///
    /// ## Example
    /// ```puppet
    /// exec { 'greet':
    ///   command => 'echo ${name}',
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Use double quotes (`"echo ${name}"`), or escape the dollar sign if the text is meant.
    /// puppet-lint reports this as an error; pupcheck as a warning, since it may be deliberate.
    "single-quote-string-with-variables" (Style, Warning)
    "A single-quoted string contains `${`, which is not interpolated"
    { puppet_lint: "single_quote_string_with_variables", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    // Template arguments of inline_epp/inline_template are exempt.
    let mut exempt = Vec::new();
    each_expr(ctx, |expr| {
        if let ExprKind::Call(call) = &expr.kind {
            if matches!(&call.function.kind, ExprKind::Name(n) if n == "inline_epp" || n == "inline_template")
            {
                if let Some(first) = call.args.first() {
                    exempt.push(first.span);
                }
            }
        }
    });
    each_expr(ctx, |expr| {
        if let ExprKind::String(s) = &expr.kind {
            if s.style == StringStyle::SingleQuoted
                && s.value.contains("${")
                && !exempt.contains(&expr.span)
            {
                out.push(RULE.diagnostic(
                    expr.span,
                    "single quoted string containing a variable found",
                ));
            }
        }
    });
}
