use crate::rules::{Category, ExprVisit, FileContext, Rule};
use crate::ast::{Expr, ExprKind, ExprTag};
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "class-inherits-from-params-class",
    summary: "A class inherits from a `::params` class",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: false,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: Some("class_inherits_from_params_class"),
    docs: "\
## What it does
Reports `class x inherits x::params`, the \"params pattern\" (off by default, as in
puppet-lint).

## Why it matters
Since Puppet 4, module data (Hiera in the module, `data/common.yaml`) gives parameters
their defaults without the inheritance, which couples the classes and hides where a
value comes from.

## Example
```puppet
class ntp ($servers = $ntp::params::servers) inherits ntp::params { }
```

## How to fix
Move the defaults to the module's Hiera data (or to the parameter list), and drop the
`inherits`.
",
    check: None,
    on_expr: Some(ExprVisit {
        kinds: &[ExprTag::Class],
        visit: check_expr,
    }),
};

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Class(class) = &expr.kind {
        if let Some(parent) = class
            .parent
            .as_ref()
            .filter(|p| p.name.ends_with("::params"))
        {
            out.push(RULE.diagnostic(parent.span, "class inheriting from params class"));
        }
    }
}
