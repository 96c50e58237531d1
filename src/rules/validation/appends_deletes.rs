use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::{AssignOp, Expr, ExprKind, ExprTag};
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "appends-deletes",
    summary: "The removed `+=` or `-=` operator is used",
    category: Category::Validation,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports `$x += ...` and `$x -= ...` (Puppet's `APPENDS_DELETES_NO_LONGER_SUPPORTED`).

## Why it matters
Puppet 4 removed these operators: variables are immutable, so the manifest is rejected.

## Example
```puppet
$packages += ['vim']
```

## How to fix
Assign a new variable: `$all_packages = $packages + ['vim']`.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::Assignment],
        visit: check_expr,
    }),
};

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Assignment { op, .. } = &expr.kind {
        let symbol = match op {
            AssignOp::AppendAssign => "+=",
            AssignOp::DeleteAssign => "-=",
            AssignOp::Assign => return,
        };
        out.push(RULE.diagnostic(
            expr.span,
            format!("The operator '{symbol}' is no longer supported. See http://links.puppet.com/remove-plus-equals"),
        ));
    }
}
