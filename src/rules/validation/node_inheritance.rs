use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "node-inheritance",
    summary: "A node definition inherits from another node",
    category: Category::Validation,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports `node x inherits y` (Puppet's `ILLEGAL_NODE_INHERITANCE`).

## Why it matters
Node inheritance was removed in Puppet 4; the manifest is rejected.

## Example
```puppet
node 'web1' inherits base { }
```

## How to fix
Put what the nodes share in a class (a role or profile) and include it in each node.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::Node],
        visit: check_expr,
    }),
};

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
