use super::{Category, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "not-absolute-top-level",
    summary: "A function or type alias is defined inside another construct",
    category: Category::Validation,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports `function` and `type` definitions that are not at the top level of their file
(Puppet's `NOT_ABSOLUTE_TOP_LEVEL`).

## Why it matters
Functions and type aliases are global and loaded from their own files; Puppet rejects
them inside classes, conditionals or other blocks.

## Example
```puppet
class demo {
  include demo::install
  function demo::helper() { 1 }
}
```

## How to fix
Move it to `demo/functions/helper.pp` (or `demo/types/...` for a type alias).
",
    check: Some(check),
};

fn label(e: &Expr) -> Option<&'static str> {
    match &e.kind {
        ExprKind::Function(_) => Some("A Function Definition"),
        ExprKind::TypeAlias(_) => Some("A Type Alias"),
        ExprKind::TypeMapping(_) => Some("A Type Mapping"),
        ExprKind::TypeDefinition(_) => Some("A Type Definition"),
        _ => None,
    }
}

struct Find<'a> {
    out: &'a mut Vec<Diagnostic>,
}

impl Visitor<'_> for Find<'_> {
    fn visit_block(&mut self, block: &Block) {
        // Puppet makes a block of one statement no block at all: a single definition in
        // a class body is then directly in the class, which it accepts.
        for s in &block.statements {
            if let (Some(what), true) = (label(s), block.statements.len() > 1) {
                self.out
                    .push(RULE.diagnostic(s.span, format!("{what} may only appear at toplevel")));
            }
            self.visit_expr(s);
        }
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let mut find = Find { out };
    for s in &ctx.program.body {
        walk_expr(&mut find, s);
    }
}
