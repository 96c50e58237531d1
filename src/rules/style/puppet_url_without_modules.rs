use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind, StringPart, StringStyle};
use crate::diagnostics::{Diagnostic, Fix};

declare_rule! {
    /// ## What it does
    /// Reports `puppet://` URLs whose path does not start with `modules/`.
    ///
    /// ## Why it matters
    /// Files served from a module are found at `puppet:///modules/<module>/<file>`; other mount
    /// points depend on fileserver configuration that rarely exists.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/etc/motd':
    ///   source => 'puppet:///demo/motd',
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Write `puppet:///modules/demo/motd`.
    "puppet-url-without-modules" (Style, Warning)
    "A puppet:// URL does not go through modules/"
    { fixable, puppet_lint: "puppet_url_without_modules", on_expr: [Interpolated, String] }
}

fn is_bad(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("puppet://") else {
        return false;
    };
    // puppet-lint: `puppet://.*?/(.+)` must start with modules/
    match rest.find('/') {
        Some(i) if i + 1 < rest.len() => !rest[i + 1..].starts_with("modules/"),
        _ => true,
    }
}

fn check_expr(ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let text = match &expr.kind {
        ExprKind::String(s)
            if s.style != StringStyle::Heredoc && s.style != StringStyle::Bare =>
        {
            s.value.as_str()
        }
        ExprKind::Interpolated(parts) => match parts.first() {
            Some(StringPart::Text(t, _)) => t.as_str(),
            _ => return,
        },
        _ => return,
    };
    if is_bad(text) {
        let d = RULE.diagnostic(expr.span, "puppet:// URL without modules/ found");
        out.push(match with_modules(&ctx.source.text[expr.span.range()]) {
            Some(fixed) => d.with_fix(Fix::replace(expr.span, fixed)),
            None => d,
        });
    }
}

/// puppet-lint's fix: `modules/` after the server part of every `puppet://` URL in the
/// string as written (`puppet:///foo/x` becomes `puppet:///modules/foo/x`).
fn with_modules(code: &str) -> Option<String> {
    let mut out = String::with_capacity(code.len() + 8);
    let mut rest = code;
    while let Some(i) = rest.find("puppet://") {
        let after = i + "puppet://".len();
        let slash = rest[after..].find('/')? + after + 1;
        out.push_str(&rest[..slash]);
        out.push_str("modules/");
        rest = &rest[slash..];
    }
    out.push_str(rest);
    (out != code).then_some(out)
}
