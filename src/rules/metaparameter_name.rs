use super::text::each_expr;
use super::{Category, FileContext, Rule};
use crate::ast::{ExprKind, METAPARAMETERS};
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "metaparameter-name",
    summary: "A defined type parameter is named like a metaparameter",
    category: Category::Validation,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports a defined type parameter named after a metaparameter (`tag`, `require`,
`notify`, `before`, ...), as `puppet parser validate` warns.

## Why it matters
The value is also the metaparameter of the defined resource, so it is inherited by every
resource the definition contains, which is rarely intended.

## Example
```puppet
define demo::pool (String $tag) { }
```

## How to fix
Rename the parameter (`$pool_tag`), or rely on the metaparameter itself.
",
    check: Some(check),
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_expr(ctx, |expr| {
        let ExprKind::Define(d) = &expr.kind else {
            return;
        };
        for p in d.params.iter().flatten() {
            if METAPARAMETERS.contains(&p.name.name.as_str()) {
                out.push(RULE.diagnostic(
                    p.name.span,
                    format!(
                        "{} is a metaparam; this value will inherit to all contained resources in the {} definition",
                        p.name.name, d.name.name
                    ),
                ));
            }
        }
    });
}
