use super::declarations::{each_builtin_resource, each_typed_resource};
use super::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "unknown-attribute",
    summary: "A resource of a type written in Ruby is given an attribute the type does not have",
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

A module's types written in Ruby (`lib/puppet/type/<name>.rb` of the one module on the
modulepath that has it) are judged too, when pupcheck can read all their attributes
from the file (`newparam`, `newproperty`, `ensurable` with literal names): not a type
with a parent, attributes added in a loop or by a helper (`puppet_x`), or a Resource
API type. `name` and `provider` are always accepted.

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
    let mut report = |name: &str, span, shown: &str| {
        out.push(RULE.diagnostic(span, format!("no parameter named '{name}' on {shown}")));
    };
    each_builtin_resource(ctx, |resource| {
        for attribute in &resource.body.attributes {
            let name = attribute.name.name.as_str();
            if name != "*" && !resource.resource_type.accepts_attribute(name) {
                report(name, attribute.name.span, &resource.shown);
            }
        }
    });
    // A module's types written in Ruby, where pupcheck reads their attributes whole.
    let module_type = |name: &str| {
        crate::env::builtin::resource_type(name)
            .is_none()
            .then(|| ctx.env.ruby_type(name))
            .flatten()
    };
    each_typed_resource(ctx, module_type, |resource| {
        for attribute in &resource.body.attributes {
            let name = attribute.name.name.as_str();
            if name != "*" && !resource.resource_type.accepts_attribute(name) {
                report(name, attribute.name.span, &resource.shown);
            }
        }
    });
}
