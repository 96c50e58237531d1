use super::declarations::each_builtin_resource;
use super::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "unknown-attribute",
    summary: "A resource of a built-in type is given an attribute the type does not have",
    category: Category::Type,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports an attribute of a resource of one of Puppet's built-in types (`file`,
`package`, `service`, `exec`, `user`, `group`, ...) that is neither one of the type's
parameters or properties nor a metaparameter. The list of each type's attributes is
data generated from Puppet itself (`data/resource_types.toml`).

## Why it matters
Puppet fails the catalog (\"no parameter named 'ensur' on File[/etc/motd]\"), usually
because of a typo.

## Example
```puppet
file { '/etc/motd': ensur => file }
```

## How to fix
Correct the attribute's name (`ensure`).
",
    check: Some(check),
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_builtin_resource(ctx, |resource| {
        for attribute in &resource.body.attributes {
            let name = attribute.name.name.as_str();
            if name == "*" || resource.builtin.accepts_attribute(name) {
                continue;
            }
            out.push(RULE.diagnostic(
                attribute.name.span,
                format!("no parameter named '{name}' on {}", resource.shown),
            ));
        }
    });
}
