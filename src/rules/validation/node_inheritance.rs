use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports `node x inherits y` (Puppet's `ILLEGAL_NODE_INHERITANCE`).
    ///
    /// ## Why it matters
    /// Node inheritance was removed in Puppet 4; the manifest is rejected.
    ///
    /// ## Example
    /// ```puppet
    /// node 'web1' inherits base { }
    /// ```
    ///
    /// ## How to fix
    /// Put what the nodes share in a class (a role or profile) and include it in each node.
    "node-inheritance" (Validation, Error)
    "A node definition inherits from another node"
    { on_expr: [Node] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Node(node) = &expr.kind {
        if let Some(parent) = &node.parent {
            out.push(RULE.diagnostic(
                parent.span,
                "Node inheritance is not supported in Puppet >= 4.0.0. See http://links.puppet.com/puppet-node-inheritance-deprecation",
            ));
        }
    }
}
