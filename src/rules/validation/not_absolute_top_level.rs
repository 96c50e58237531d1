use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports `function` and `type` definitions that are not at the top level of their file
    /// (Puppet's `NOT_ABSOLUTE_TOP_LEVEL`).
    ///
    /// ## Why it matters
    /// Functions and type aliases are global and loaded from their own files; Puppet rejects
    /// them inside classes, conditionals or other blocks.
    ///
    /// ## Example
    /// ```puppet
    /// class demo {
    ///   include demo::install
    ///   function demo::helper() { 1 }
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Move it to `demo/functions/helper.pp` (or `demo/types/...` for a type alias).
    "not-absolute-top-level" (Validation, Error)
    "A function or type alias is defined inside another construct"
    { check }
}

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

impl Find<'_> {
    /// The statements of a class or defined type body: a definition there is in a top
    /// construct, but not at the top of the file (elsewhere not-top-level reports it).
    fn body(&mut self, statements: &[Expr]) {
        for s in statements {
            if let Some(what) = label(s) {
                let at = match &s.kind {
                    // Puppet points at the alias's name.
                    ExprKind::TypeAlias(alias) => alias.name.span,
                    _ => s.span,
                };
                self.out
                    .push(RULE.diagnostic(at, format!("{what} may only appear at toplevel")));
            }
        }
    }
}

impl Visitor<'_> for Find<'_> {
    fn visit_expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Class(c) => self.body(&c.body.statements),
            ExprKind::Define(d) => self.body(&d.body.statements),
            _ => {}
        }
        walk_expr(self, expr);
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let mut find = Find { out };
    for s in &ctx.program.body {
        find.visit_expr(s);
    }
}
