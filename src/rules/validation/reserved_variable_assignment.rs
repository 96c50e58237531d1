use crate::analysis::text::*;
use crate::rules::{Category, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "reserved-variable-assignment",
    summary: "`$facts`, `$trusted` or `$server_facts` is assigned",
    category: Category::Validation,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports an assignment to `$facts`, `$trusted` or `$server_facts` (or their top-scope
forms `$::facts`, ...).

## Why it matters
Puppet sets these itself; compiling the catalog fails with \"Attempt to assign to a
reserved variable name\".

## Example
```puppet
$facts = {}
```

## How to fix
Use another name.
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_assignment(ctx, |_, left| {
        for target in assignment_targets(left) {
            if let ExprKind::Variable(name) = &target.kind {
                let bare = name.trim_start_matches("::");
                if matches!(bare, "facts" | "trusted" | "server_facts") {
                    out.push(RULE.diagnostic(
                        target.span,
                        format!("Attempt to assign to a reserved variable name: '${bare}'"),
                    ));
                }
            }
        }
    });
}
