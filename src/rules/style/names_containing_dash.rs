use crate::analysis::definition_names::definitions;
use crate::rules::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "names-containing-dash",
    summary: "A class or defined type name contains a dash",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: Some("names_containing_dash"),
    docs: "\
## What it does
Reports class and defined type names with a `-`.

## Why it matters
Puppet 4 and later do not accept dashes in class names; such a class cannot be found.

## Example
```puppet
class my-module { }
```

## How to fix
Use underscores: `class my_module { }`.
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for d in definitions(ctx.program) {
        if d.name.name.contains('-') {
            out.push(RULE.diagnostic(d.name.span, format!("{} name containing a dash", d.what)));
        }
    }
}
