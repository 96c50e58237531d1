use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind, StringStyle};
use crate::diagnostics::{Diagnostic, Fix};
use regex::Regex;
use std::sync::OnceLock;

declare_rule! {
    /// ## What it does
    /// Reports the `mode` attribute of `file` and `concat` resources when its value is not a
    /// 4-digit octal string (`'0644'`) or a symbolic mode (`'u=rw,go=r'`). Variables, `undef`
    /// and function calls are not checked.
    ///
    /// ## Why it matters
    /// A 3-digit mode is read the same today, but the style guide asks for four digits so the
    /// special bits (setuid, setgid, sticky) are always explicit.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/etc/motd':
    ///   mode => '644',
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Write `'0644'` (`--fix` prefixes a 3-digit mode with `0`).
    "file-mode" (Style, Warning)
    "A file mode is not a 4-digit octal value or a symbolic mode"
    { fixable, puppet_lint: "file_mode", on_expr: [Resource] }
}

fn mode_pattern() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let sym = r"([ugoa]*[-=+][-=+rstwxXugo]*)(,[ugoa]*[-=+][-=+rstwxXugo]*)*";
        Regex::new(&format!(r"\A([0-7]{{4}}|{sym})\z")).expect("valid mode pattern")
    })
}

fn check_expr(ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Resource(resource) = &expr.kind {
        if matches!(&resource.type_expr.kind, ExprKind::Name(n) if n == "file" || n == "concat")
        {
            for body in &resource.bodies {
                for attribute in body.attributes.iter().filter(|a| a.name.name == "mode") {
                    let text = match &attribute.value.kind {
                        ExprKind::String(s) if s.style != StringStyle::Heredoc => {
                            s.value.clone()
                        }
                        // Unquoted: compare the text as written (`0644` is octal).
                        ExprKind::Integer(_) | ExprKind::Name(_) => {
                            ctx.source.text[attribute.value.span.range()].to_string()
                        }
                        _ => continue,
                    };
                    if !mode_pattern().is_match(&text) {
                        let span = attribute.value.span;
                        let d = RULE.diagnostic(
                            span,
                            "mode should be represented as a 4 digit octal value or symbolic mode",
                        );
                        // puppet-lint's fix: three octal digits get a leading 0, quoted.
                        let octal =
                            text.len() == 3 && text.bytes().all(|b| (b'0'..=b'7').contains(&b));
                        out.push(if octal {
                            d.with_fix(Fix::replace(span, format!("'0{text}'")))
                        } else {
                            d
                        });
                    }
                }
            }
        }
    }
}
