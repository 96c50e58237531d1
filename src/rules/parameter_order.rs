use super::definition_names::definitions;
use super::{Category, FileContext, Rule};
use crate::ast::{Expr, ExprKind, Parameter};
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "parameter-order",
    summary: "An optional parameter comes before a required one",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: Some("parameter_order"),
    docs: "\
## What it does
Reports a required parameter (no default, not `Optional[...]`) of a class or defined
type that comes after a parameter with a default.

## Why it matters
The style guide lists required parameters first, so a reader sees at once what must be
given.

## Example
```puppet
class demo (
  Integer $port = 80,
  String  $name,
) { }
```

## How to fix
Move the required parameters to the front.
",
    check: Some(check),
};

/// The outermost type name of a type expression (`Optional` for `Optional[String]`).
fn outer_type(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::TypeRef(name) => Some(name),
        ExprKind::Access { object, .. } => outer_type(object),
        _ => None,
    }
}

/// The type puppet-lint sees for a parameter: the closest type name before it, which for
/// an untyped parameter is the previous parameter's.
fn seen_type(params: &[Parameter], i: usize) -> Option<&str> {
    params[..=i]
        .iter()
        .rev()
        .find_map(|p| p.type_expr.as_ref().and_then(outer_type))
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for d in definitions(ctx.program) {
        let Some(params) = d.params else { continue };
        let mut seen_default = false;
        for (i, p) in params.iter().enumerate() {
            let required = p.default.is_none() && seen_type(params, i) != Some("Optional");
            if required && seen_default {
                out.push(RULE.diagnostic(
                    p.name.span,
                    "optional parameter listed before required parameter",
                ));
            }
            seen_default |= p.default.is_some();
        }
    }
}
