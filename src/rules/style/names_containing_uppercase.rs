use crate::analysis::definition_names::definitions;
use crate::rules::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Fix, Severity};

pub static RULE: Rule = Rule {
    id: "names-containing-uppercase",
    summary: "A class or defined type name contains an uppercase letter",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: true,
    reads_interpretation: false,
    puppet_lint: Some("names_containing_uppercase"),
    docs: "\
## What it does
Reports class and defined type names with uppercase letters.

## Why it matters
Names are lowercase in Puppet; the autoloader looks for lowercase file names, so such a
class is not found on case-sensitive file systems.

## Example
```puppet
class Demo::Config { }
```

## How to fix
Use the lowercase name: `class demo::config { }`.
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for d in definitions(ctx.program) {
        if d.name.name.chars().any(|c| c.is_ascii_uppercase()) {
            // Puppet resolves class and type names ignoring case, so the lowercase name
            // still names the same definition.
            out.push(
                RULE.diagnostic(
                    d.name.span,
                    format!("{} '{}' contains illegal uppercase", d.what, d.name.name),
                )
                .with_fix(Fix::replace(d.name.span, d.name.name.to_lowercase())),
            );
        }
    }
}
