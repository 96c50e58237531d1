use crate::rules::FileContext;
use crate::ast::{walk_expr, Expr, ExprKind, Visitor};
use crate::diagnostics::Diagnostic;
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// Reports `class` and `define` definitions inside the body of a class.
    ///
    /// ## Why it matters
    /// A nested definition is only known once the outer class has been evaluated, and the
    /// autoloader cannot find it on its own.
    ///
    /// ## Example
    /// ```puppet
    /// class demo {
    ///   class config { }
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Move it to its own file, `demo/manifests/config.pp`, as `class demo::config`.
    "nested-classes-or-defines" (Style, Warning)
    "A class or defined type is defined inside a class"
    { puppet_lint: "nested_classes_or_defines", check }
}

struct Find<'a> {
    /// How many class bodies enclose the current expression.
    classes: usize,
    out: &'a mut Vec<Diagnostic>,
}

impl Visitor<'_> for Find<'_> {
    fn visit_expr(&mut self, expr: &Expr) {
        let (keyword, what, is_class) = match &expr.kind {
            ExprKind::Class(_) => ("class", "class", true),
            ExprKind::Define(_) => ("define", "defined type", false),
            _ => {
                walk_expr(self, expr);
                return;
            }
        };
        // puppet-lint reports the keyword once for each class it is inside.
        for _ in 0..self.classes {
            self.out.push(RULE.diagnostic(
                Span::new(expr.span.start, expr.span.start + keyword.len() as u32),
                format!("{what} defined inside a class"),
            ));
        }
        self.classes += usize::from(is_class);
        walk_expr(self, expr);
        self.classes -= usize::from(is_class);
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let mut find = Find { classes: 0, out };
    for statement in &ctx.program.body {
        find.visit_expr(statement);
    }
}
