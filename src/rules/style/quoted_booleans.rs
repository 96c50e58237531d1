use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::{Expr, ExprKind, ExprTag, StringStyle};
use crate::diagnostics::{Applicability, Diagnostic, Edit, Fix, Severity};

pub static RULE: Rule = Rule {
    id: "quoted-booleans",
    summary: "A string holds only `true` or `false`",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: false,
    fixable: true,
    reads_interpretation: false,
    puppet_lint: Some("quoted_booleans"),
    docs: "\
## What it does
Reports `'true'`, `'false'`, `\"true\"` and `\"false\"` (off by default, as in puppet-lint).

## Why it matters
The string `'false'` is truthy in Puppet: `if 'false' { }` runs its block. A quoted
boolean is almost always a boolean meant.

## Example
```puppet
service { 'ntp': enable => 'true' }
```

## How to fix
Write the boolean: `enable => true`. The fix does that; it is unsafe (applied only with
`--unsafe-fixes`) because a string and a boolean are different values: code comparing
with `'true'` or a type expecting a String changes behaviour.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::String],
        visit: check_expr,
    }),
};

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::String(s) = &expr.kind {
        let quoted = matches!(
            s.style,
            StringStyle::SingleQuoted | StringStyle::DoubleQuoted
        );
        if quoted && (s.value == "true" || s.value == "false") {
            out.push(
                RULE.diagnostic(expr.span, "quoted boolean value found")
                    .with_fix(Fix {
                        edits: vec![Edit {
                            span: expr.span,
                            replacement: s.value.clone(),
                        }],
                        applicability: Applicability::Unsafe,
                    }),
            );
        }
    }
}
