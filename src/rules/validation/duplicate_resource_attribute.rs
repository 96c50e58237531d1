use crate::analysis::text::*;
use crate::rules::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "duplicate-resource-attribute",
    summary: "A resource body sets the same attribute twice",
    category: Category::Validation,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
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
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_resource_body(ctx, |_, body| {
        let attributes = &body.attributes;
        let earlier = earlier_duplicates(attributes, |a| {
            (a.name.name != "*").then_some(a.name.name.as_str())
        });
        for (a, first) in attributes.iter().zip(earlier) {
            if first.is_some() {
                out.push(RULE.diagnostic(
                    a.name.span,
                    format!("The attribute '{}' has already been set", a.name.name),
                ));
            }
        }
    });
}
