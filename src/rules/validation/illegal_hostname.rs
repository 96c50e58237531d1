use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports node names that interpolate an expression (`ILLEGAL_HOSTNAME_INTERPOLATION`) or
    /// contain characters other than letters, digits, `_`, `-` and `.`
    /// (`ILLEGAL_HOSTNAME_CHARS`).
    ///
    /// ## Why it matters
    /// Node names are matched against certificate names when the catalog is compiled; Puppet
    /// rejects these.
    ///
    /// ## Example
    /// ```puppet
    /// node "web-${id}" { }
    /// ```
    ///
    /// ## How to fix
    /// Use a regular expression to match several names: `node /^web-\d+$/ { }`.
    "illegal-hostname" (Validation, Error)
    "A node name interpolates or has characters hostnames cannot have"
    { on_expr: [Node] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let ExprKind::Node(node) = &expr.kind else {
        return;
    };
    for m in node.matches.iter().chain(node.parent.iter()) {
        match &m.kind {
            ExprKind::Interpolated(parts) => {
                let at = parts
                    .iter()
                    .find_map(|p| match p {
                        StringPart::Interpolation(e) => Some(e.span),
                        StringPart::Text(..) => None,
                    })
                    .unwrap_or(m.span);
                out.push(RULE.diagnostic(
                    at,
                    "An interpolated expression is not allowed in a hostname of a node",
                ));
            }
            ExprKind::String(s)
                if s.value
                    .chars()
                    .any(|c| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '.')) =>
            {
                out.push(RULE.diagnostic(
                    m.span,
                    format!("The hostname '{}' contains illegal characters (only letters, digits, '_', '-', and '.' are allowed)", s.value),
                ));
            }
            _ => {}
        }
    }
}
