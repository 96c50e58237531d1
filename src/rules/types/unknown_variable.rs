use crate::rules::{Category, FileContext, Rule};
use crate::ast::ExprKind;
use crate::diagnostics::{Diagnostic, Severity};
use crate::env::Environment;

pub static RULE: Rule = Rule {
    id: "unknown-variable",
    summary: "A qualified variable names a variable its class never sets",
    category: Category::Type,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports a qualified variable (`$ntp::servers`) of a class pupcheck has read whose body
sets no such variable on any path, has no such parameter, and inherits from no class
that has one. Classes pupcheck has not read, and classes whose body holds a syntax
error, are not judged.

## Why it matters
With `strict_variables`, the default from Puppet 8, the compile fails (\"Unknown
variable: 'ntp::servers'.\"); Puppet 7 by default reads the variable as `undef` and
warns. It is most often a typo, or a variable the class no longer sets.

An error by default, as in Puppet 8; `strict-variables = false` in `pupcheck.toml`
makes it a warning, for estates on Puppet 7's default.

## Example
```puppet
class ntp (Array[String] $servers = []) { }
notice($ntp::server)
```

## How to fix
Name a variable the class sets (`$ntp::servers`).
",
    check: Some(check),
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for expr in &ctx.exprs {
        let ExprKind::Variable(written) = &expr.kind else {
            continue;
        };
        let Some((class, variable)) = written.trim_start_matches("::").rsplit_once("::") else {
            continue;
        };
        if class.is_empty()
            || has_variable(ctx.env, &class.to_ascii_lowercase(), variable, 0) != Some(false)
        {
            continue;
        }
        // Puppet 7 without strict_variables only warns.
        let severity = if ctx.settings.strict_variables {
            RULE.severity
        } else {
            Severity::Warning
        };
        out.push(Diagnostic::new(
            RULE.id,
            severity,
            expr.span,
            format!("Unknown variable: '{}'.", written.trim_start_matches("::")),
        ));
    }
}

/// Whether the class `class` (or one it inherits from) has the variable; `None` when
/// that is not known (a class not read, or not read whole).
fn has_variable(env: &Environment, class: &str, variable: &str, depth: usize) -> Option<bool> {
    // Every class scope has these; an inheritance chain this long is a cycle.
    if matches!(
        variable,
        "title" | "name" | "module_name" | "caller_module_name"
    ) || depth > 32
    {
        return (depth <= 32).then_some(true);
    }
    let definition = env.class(class)?;
    let variables = definition.variables.as_ref()?;
    if variables.iter().any(|v| v == variable) || definition.param(variable).is_some() {
        return Some(true);
    }
    match &definition.parent {
        Some(parent) => has_variable(env, parent, variable, depth + 1),
        None => Some(false),
    }
}
