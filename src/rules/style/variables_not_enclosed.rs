use crate::analysis::walks::each_interpolation;
use crate::rules::FileContext;
use crate::ast::ExprKind;
use crate::diagnostics::{Diagnostic, Fix};

declare_rule! {
    /// ## What it does
    /// Reports `$var` interpolated in a double-quoted string or heredoc without `${...}`.
    ///
    /// ## Why it matters
    /// Without braces it is easy to misread where the name ends (`"$name-1"`, `"$a::b"`); the
    /// style guide asks for `${var}` always.
    ///
    /// ## Example
    /// ```puppet
    /// $greeting = "hello $name"
    /// ```
    ///
    /// ## How to fix
    /// Write `"hello ${name}"`.
    "variables-not-enclosed" (Style, Warning)
    "A variable is interpolated without braces"
    { fixable, puppet_lint: "variables_not_enclosed", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let bytes = ctx.source.text.as_bytes();
    each_interpolation(ctx, |e| {
        // `$x` starts with the dollar sign; `${x}` lowers to a variable whose span
        // starts at the name, and `${$x}` has `${` right before it.
        let start = e.span.start as usize;
        let enclosed = start >= 2 && &bytes[start - 2..start] == b"${";
        if matches!(e.kind, ExprKind::Variable(_)) && bytes.get(start) == Some(&b'$') && !enclosed {
            let name = &ctx.source.text[e.span.start as usize + 1..e.span.end as usize];
            out.push(
                RULE.diagnostic(e.span, "variable not enclosed in {}")
                    .with_fix(Fix::replace(e.span, format!("${{{name}}}"))),
            );
        }
    });
}
