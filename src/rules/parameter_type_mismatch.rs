use super::bodies::{mismatch, walk_bodies, Undef};
use super::declarations::{declarations_in, Declaration};
use super::{Category, FileContext, Rule};
use crate::ast::{AttributeOp, ExprKind};
use crate::diagnostics::{Diagnostic, Severity};
use crate::env::FileAliases;
use crate::eval::flow::Reached;
use crate::eval::Evaluator;

pub static RULE: Rule = Rule {
    id: "parameter-type-mismatch",
    summary: "A value given to a class or defined type parameter does not match its type",
    category: Category::Type,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: None,
    docs: "\
## What it does
Checks each attribute of a class declaration (`class { 'ntp': servers => 42 }`) or a
defined type declaration (`ntp::peer { 'x': port => 'a' }`) against the type of the
parameter it sets, when the class or defined type is one pupcheck has read (in the
files checked or the modules around them) and either the value follows from the code
or it is a parameter of the enclosing definition whose type no accepted value shares
(`String $name` passed where an `Array` is expected).

## Why it matters
Puppet checks the value when it evaluates the declaration and fails the whole catalog
(\"Class[Ntp]: parameter 'servers' expects an Array value, got Integer\"): on the node,
at run time, for every node that reaches the declaration.

## Example
```puppet
class ntp (Array[String] $servers = []) { }
class { 'ntp': servers => 'pool.ntp.org' }
```

## How to fix
Pass a value of the parameter's type (`['pool.ntp.org']`), or change the type.
",
    check: Some(check),
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    // The walk evaluates every body: only worth it when something is declared that the
    // index knows.
    let declares = ctx.exprs.iter().any(
        |e| matches!(&e.kind, ExprKind::Resource(r) if !declarations_in(ctx.env, r).is_empty()),
    );
    if !declares {
        return;
    }
    let aliases = FileAliases::new(ctx.program, ctx.env);
    walk_bodies(ctx, &aliases, &mut |evaluator, reached| {
        if let Reached::Resource(resource) = reached {
            for declaration in declarations_in(ctx.env, resource) {
                check_declaration(evaluator, &declaration, out);
            }
        }
    });
}

fn check_declaration(
    evaluator: &mut Evaluator,
    declaration: &Declaration,
    out: &mut Vec<Diagnostic>,
) {
    for attribute in &declaration.body.attributes {
        if attribute.op != AttributeOp::Set {
            continue;
        }
        let Some(param) = declaration.definition.param(&attribute.name.name) else {
            continue;
        };
        let Some(type_expr) = &param.type_expr else {
            continue;
        };
        let Some(why) = mismatch(
            evaluator,
            type_expr,
            &param.name.name,
            &attribute.value,
            Undef::LeavesTheDefault,
        ) else {
            continue;
        };
        out.push(
            RULE.diagnostic(
                attribute.value.span,
                format!("{}: {}", declaration.subject, why.join("; ")),
            )
            .with_note(format!(
                "'{}' is declared as {} in {}",
                param.name.name,
                evaluator
                    .resolve_type(type_expr)
                    .map_or_else(|_| "its type".to_string(), |t| t.to_string()),
                declaration.definition.path.display()
            )),
        );
    }
}
