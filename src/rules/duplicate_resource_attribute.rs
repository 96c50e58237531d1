#[allow(unused_imports)]
use super::text::*;
use super::{Category, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "duplicate-resource-attribute",
    summary: "A resource body sets the same attribute twice",
    category: Category::Validation,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: Some("duplicate_params"),
    docs: "\
## What it does
Reports an attribute given twice in one resource body.

## Why it matters
Puppet fails compiling the catalog (the attribute is already set); which value was meant
is unclear.

## Example
```puppet
file { '/tmp/x':
  ensure => file,
  ensure => directory,
}
```

## How to fix
Remove one of them.
",
    check: Some(check),
};

/// The resource bodies of a file with their resource type name (`file`, `class`...).
#[allow(dead_code)]
fn bodies(program: &Program, mut f: impl FnMut(&str, &ResourceBody)) {
    each_expr(program, |expr| {
        if let ExprKind::Resource(r) = &expr.kind {
            if let ExprKind::Name(t) = &r.type_expr.kind {
                for b in &r.bodies {
                    f(t, b);
                }
            }
        }
    });
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    bodies(ctx.program, |_, body| {
        for (i, a) in body.attributes.iter().enumerate() {
            if a.name.name != "*"
                && body.attributes[..i]
                    .iter()
                    .any(|b| b.name.name == a.name.name)
            {
                out.push(RULE.diagnostic(
                    a.name.span,
                    format!("The attribute '{}' has already been set", a.name.name),
                ));
            }
        }
    });
}
