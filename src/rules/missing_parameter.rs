use super::declarations::each_declaration;
use super::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Severity};
use crate::types::mismatch::of_subject;

pub static RULE: Rule = Rule {
    id: "missing-parameter",
    summary: "A defined type is declared without a parameter that has no default",
    category: Category::Type,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports a declaration of a defined type (a resource body, or an entry of a
`create_resources` hash the evaluation knows) that gives no value for a parameter
without a default, when the defined type is one pupcheck has read.

A declaration is not judged when something else may give the value: a `* =>` hash the
evaluation does not know, or a resource default (`Web::Vhost { port => 80 }`) or
override (`Web::Vhost['a'] { ... }`, `Web::Vhost <| |> { ... }`) of the type anywhere
in the files checked (defaults reach the classes their scope declares). Virtual and
exported resources are judged too: Puppet requires their parameters even when they are
never realized. Classes are not judged yet: Hiera's automatic parameter lookup may bind
what their declarations lack.

## Why it matters
Puppet fails the catalog at the declaration (\"Web::Vhost[www]: expects a value for
parameter 'port'\"). A parameter given `undef` counts as given.

## Example
```puppet
define web::vhost (Integer $port, String $docroot = '/var/www') { }
web::vhost { 'www': docroot => '/srv/www' }
```

## How to fix
Give the parameter a value (`port => 80`), or give it a default in the definition.
",
    check: Some(check),
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_declaration(ctx, |declaration| {
        if declaration.is_class
            || declaration.is_default_body
            || !declaration.complete
            || ctx
                .env
                .may_set_attributes_apart(&declaration.definition.name)
        {
            return;
        }
        let missing: Vec<String> = declaration
            .definition
            .params
            .iter()
            .flatten()
            .filter(|p| p.default.is_none() && !p.captures_rest)
            .filter(|p| !declaration.attributes.iter().any(|a| a.name == p.name.name))
            .filter(|p| !declaration.shared.contains(&p.name.name.as_str()))
            .map(|p| format!("expects a value for parameter '{}'", p.name.name))
            .collect();
        if missing.is_empty() {
            return;
        }
        out.push(
            RULE.diagnostic(declaration.span, of_subject(&declaration.subject, &missing))
                .with_note(format!(
                    "{} is defined in {}",
                    declaration.subject,
                    declaration.definition.path.display()
                )),
        );
    });
}
