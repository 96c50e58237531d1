use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::{Attribute, Expr, ExprKind, ExprTag};
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "multiple-attributes-unfold",
    summary: "A resource body has more than one `* =>`",
    category: Category::Validation,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports a second attribute splat (`* => $hash`) in one resource body (Puppet's
`MULTIPLE_ATTRIBUTES_UNFOLD`).

## Why it matters
Puppet's validator rejects it.

## Example
```puppet
file { '/tmp/x':
  * => $defaults,
  * => $overrides,
}
```

## How to fix
Merge the hashes: `* => $defaults + $overrides`.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::Resource, ExprTag::ResourceDefaults, ExprTag::ResourceOverride],
        visit: check_expr,
    }),
};

fn check_body(out: &mut Vec<Diagnostic>, attributes: &[Attribute]) {
    let splats: Vec<&Attribute> = attributes.iter().filter(|a| a.name.name == "*").collect();
    for extra in splats.iter().skip(1) {
        out.push(
            RULE.diagnostic(
                extra.name.span,
                "Unfolding of attributes from Hash can only be used once per resource body",
            )
            .with_label(splats[0].name.span, "the first unfold"),
        );
    }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match &expr.kind {
    ExprKind::Resource(r) => r.bodies.iter().for_each(|b| check_body(out, &b.attributes)),
    ExprKind::ResourceDefaults(d) => check_body(out, &d.attributes),
    ExprKind::ResourceOverride(o) => check_body(out, &o.attributes),
    _ => {}
    }
}
