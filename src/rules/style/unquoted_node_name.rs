use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Fix};

declare_rule! {
    /// ## What it does
    /// Reports node names written as bare words (`node web1 { }`); `default` and regular
    /// expressions are fine.
    ///
    /// ## Why it matters
    /// The style guide quotes node names: a bare dotted name only parses by accident, and a
    /// name with a dash or starting with a digit does not parse at all.
    ///
    /// ## Example
    /// ```puppet
    /// node web1 { }
    /// ```
    ///
    /// ## How to fix
    /// Quote it: `node 'web1' { }`.
    "unquoted-node-name" (Style, Warning)
    "A node name is not quoted"
    { fixable, puppet_lint: "unquoted_node_name", on_expr: [Node] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let ExprKind::Node(node) = &expr.kind else {
        return;
    };
    for m in &node.matches {
        if let ExprKind::String(s) = &m.kind {
            if s.style == StringStyle::Bare {
                out.push(
                    RULE.diagnostic(m.span, "unquoted node name found")
                        .with_fix(Fix::replace(m.span, format!("'{}'", s.value))),
                );
            }
        }
    }
}
