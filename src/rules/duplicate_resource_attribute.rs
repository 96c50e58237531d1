use super::text::*;
use super::{Category, FileContext, Rule};
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

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_resource_body(ctx, |_, body| {
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
