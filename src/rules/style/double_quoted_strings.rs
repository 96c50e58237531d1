use crate::analysis::walks::{each_expr, variable_access_keys};
use crate::analysis::code_map::quoted_content;
use crate::rules::FileContext;
use crate::ast::{ExprKind, StringStyle};
use crate::diagnostics::{Diagnostic, Edit, Fix};
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// Reports double-quoted strings that interpolate nothing and hold none of the characters
    /// that need double quotes (`\n`, `\t`, `\s`, `\$`, `\\`, quotes, a line break or a tab).
    ///
    /// ## Why it matters
    /// The style guide keeps double quotes for strings that need them, so a reader knows at a
    /// glance that a single-quoted string is literal.
    ///
    /// ## Example
    /// ```puppet
    /// $path = "/etc/motd"
    /// ```
    ///
    /// ## How to fix
    /// Use single quotes: `'/etc/motd'`.
    "double-quoted-strings" (Style, Warning)
    "A double-quoted string has no variables and no escapes"
    { fixable, puppet_lint: "double_quoted_strings", check }
}

/// What makes double quotes necessary, as puppet-lint decides it.
fn needs_double_quotes(raw: &str, column: u32) -> bool {
    // puppet-lint first turns a run of `column` spaces into a line break (its way of
    // spotting continuation lines), then looks for these.
    // (A run longer than the text cannot be in it: not built, which on a long line
    // cost the square of its length.)
    let replaced;
    let raw = if column as usize <= raw.len() {
        replaced = raw.replace(&" ".repeat(column as usize), "\n");
        replaced.as_str()
    } else {
        raw
    };
    [
        "\\$", "\\\"", "\\'", "'", "\r", "\t", "\\t", "\\s", "\n", "\\n", "\\\\",
    ]
    .iter()
    .any(|needle| raw.contains(needle))
}

/// Whether the raw text holds an escape double quotes read and single quotes do not
/// (`\\r`, `\\u`; the others make the check pass). Escapes are read left to right, so
/// `\\\\r` is a backslash and an `r`.
fn has_escape_single_quotes_lack(raw: &str) -> bool {
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.next(), Some('r' | 'u')) {
            return true;
        }
    }
    false
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let text = &ctx.source.text;
    let keys = variable_access_keys(ctx);
    each_expr(ctx, |expr| {
        if let ExprKind::String(s) = &expr.kind {
            if s.style == StringStyle::DoubleQuoted && keys.binary_search(&expr.span).is_err() {
                let column = ctx.source.position(expr.span.start).column;
                let content = quoted_content(text, expr.span);
                if !needs_double_quotes(content, column) {
                    let diagnostic =
                        RULE.diagnostic(expr.span, "double quoted string containing no variables");
                    if has_escape_single_quotes_lack(content) {
                        // puppet-lint's check lets `\u` and `\r` through and its fix
                        // changes the string; pupcheck reports it and leaves it.
                        out.push(diagnostic);
                        return;
                    }
                    // Nothing in it needs double quotes, so single ones mean the same.
                    let (open, close) = (
                        Span::new(expr.span.start, expr.span.start + 1),
                        Span::new(expr.span.end - 1, expr.span.end),
                    );
                    let quote = |span| Edit {
                        span,
                        replacement: "'".into(),
                    };
                    out.push(diagnostic.with_fix(Fix::safe(vec![quote(open), quote(close)])));
                }
            }
        }
    });
}
