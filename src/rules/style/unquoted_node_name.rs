use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Fix, Severity};

pub static RULE: Rule = Rule {
    id: "unquoted-node-name",
    summary: "A node name is not quoted",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: true,
    reads_interpretation: false,
    puppet_lint: Some("unquoted_node_name"),
    docs: "\
## What it does
Reports node names written as bare words (`node web1 { }`); `default` and regular
expressions are fine.

## Why it matters
The style guide quotes node names: a bare dotted name only parses by accident, and a
name with a dash or starting with a digit does not parse at all.

## Example
```puppet
node web1 { }
```

## How to fix
Quote it: `node 'web1' { }`.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::Node],
        visit: check_expr,
    }),
};

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
