use super::declarations::each_builtin_resource;
use super::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Severity};
use crate::eval::AbstractValue;
use crate::types::value::Value;

pub static RULE: Rule = Rule {
    id: "invalid-attribute-value",
    summary: "A built-in resource type's attribute is given a value it does not accept",
    category: Category::Type,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports a value given to an attribute of one of Puppet's built-in resource types when
the type accepts only a closed list of values for it (`force`, `purge`, `replace` of
`file`, `hasstatus` of `service`, ...) and the value, known from the code, is not one of
them. The lists are data generated from Puppet itself (`data/resource_types.toml`);
attributes that validate values their own way are not judged.

## Why it matters
The catalog compiles, but the agent rejects it when it applies it (\"Parameter force
failed on File[/tmp/x]: Invalid value \\\"maybe\\\". Valid values are true, false, yes,
no.\"), so nothing of that catalog is applied.

## Example
```puppet
file { '/etc/motd': ensure => file, replace => 'never' }
```

## How to fix
Use one of the listed values (`replace => false`).
",
    check: Some(check),
};

/// How Puppet compares a value with a listed name: strings as they are, booleans as
/// `true`/`false`; anything else is not judged here.
fn as_name(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_builtin_resource(ctx, |resource| {
        for attribute in &resource.body.attributes {
            let Some(allowed) = resource.resource_type.values.get(&attribute.name.name) else {
                continue;
            };
            let Some(AbstractValue::Known(value)) = ctx.inference().value(&attribute.value) else {
                continue;
            };
            let Some(name) = as_name(value) else {
                continue;
            };
            if allowed.contains(&name) {
                continue;
            }
            out.push(RULE.diagnostic(
                attribute.value.span,
                format!(
                    "Parameter {} failed on {}: Invalid value \"{name}\". Valid values are {}.",
                    attribute.name.name,
                    resource.shown,
                    allowed.join(", ")
                ),
            ));
        }
    });
}
