use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::{Expr, ExprKind, ExprTag, StringStyle};
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "params-empty-string-assignment",
    summary: "A `String` parameter defaults to the empty string",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: false,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: Some("params_empty_string_assignment"),
    docs: "\
## What it does
Reports class and defined type parameters typed `String...` or `Variant...` whose
default is `''`, as the puppet-lint plugin `params_empty_string_assignment` does (off
by default).

## Why it matters
An empty string standing for \"not set\" is a value every user of the parameter has to
test for; `Optional[String]` with `undef` says it in the type, and `String[1]` then
rejects the empty string.

## Example
```puppet
class demo (String $proxy = '') { }
```

## How to fix
`Optional[String[1]] $proxy = undef`, and test for `undef` where it is used.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::Class, ExprTag::Define],
        visit: check_expr,
    }),
};

/// The type's first name, as the plugin compares it (`String[1]` is `String`).
fn type_name(t: &Expr) -> Option<&str> {
    match &t.kind {
        ExprKind::TypeRef(name) => Some(name),
        ExprKind::Access { object, .. } => type_name(object),
        _ => None,
    }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let params = match &expr.kind {
        ExprKind::Class(c) => &c.params,
        ExprKind::Define(d) => &d.params,
        _ => return,
    };
    for p in params.iter().flatten() {
        let typed = p
            .type_expr
            .as_ref()
            .and_then(type_name)
            .is_some_and(|n| n.starts_with("String") || n.starts_with("Variant"));
        let empty = p.default.as_ref().is_some_and(|d| {
            matches!(&d.kind, ExprKind::String(s) if s.value.is_empty() && s.style == StringStyle::SingleQuoted)
        });
        if typed && empty {
            out.push(RULE.diagnostic(
                p.name.span,
                "class parameter with String type defaults to empty string",
            ));
        }
    }
}
