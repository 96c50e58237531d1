use crate::analysis::walks::*;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Fix};

declare_rule! {
    /// ## What it does
    /// Reports the `mode` of `file` and `concat` resources written as a number or bare word.
    ///
    /// ## Why it matters
    /// `mode => 644` is the decimal number 644 to Puppet, not the octal mode; always quote
    /// modes.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/tmp/x': mode => 0644 }
    /// ```
    ///
    /// ## How to fix
    /// Quote it: `mode => '0644'`.
    "unquoted-file-mode" (Style, Warning)
    "A file mode is not quoted"
    { fixable, puppet_lint: "unquoted_file_mode", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_resource_body(ctx, |t, body| {
        if t != "file" && t != "concat" {
            return;
        }
        for a in body.attributes.iter().filter(|a| a.name.name == "mode") {
            if matches!(a.value.kind, ExprKind::Integer(_) | ExprKind::Name(_)) {
                let mode = &ctx.source.text[a.value.span.range()];
                out.push(
                    RULE.diagnostic(a.value.span, "unquoted file mode")
                        .with_fix(Fix::replace(a.value.span, format!("'{mode}'"))),
                );
            }
        }
    });
}
