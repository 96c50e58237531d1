use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// Reports `class`, `define` and `node` definitions that are not at the top of a file or
    /// directly in a class body: inside an `if`, `unless`, `case`, a lambda, a defined type or a
    /// node (Puppet's `NOT_TOP_LEVEL`).
    ///
    /// ## Why it matters
    /// Definitions are not conditional in Puppet; the validator rejects the manifest.
    ///
    /// ## Example
    /// ```puppet
    /// if $facts['os']['family'] == 'Debian' {
    ///   class demo::debian { }
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Define it at the top of its own file and make its *inclusion* conditional instead.
    "not-top-level" (Validation, Error)
    "A class, defined type or node is defined inside a block other than a class"
    { check }
}

struct Find<'a> {
    /// Whether the statements being visited are the program's or a class body's.
    at_top: bool,
    /// Whether they are a defined type's body: a function or type alias there is
    /// not-absolute-top-level's finding (Puppet's other message).
    in_define: bool,
    /// Whether they are the block of a plan's `apply`, which Puppet compiles as a
    /// catalog's top level: a node definition may stand there (`puppet parser validate
    /// --tasks` accepts it; a class or defined type there is Puppet's "only available
    /// when compiling a catalog" error, still reported here).
    in_apply: bool,
    out: &'a mut Vec<Diagnostic>,
}

impl Find<'_> {
    fn statements(&mut self, statements: &[Expr], at_top: bool) {
        self.statements_of(statements, at_top, false);
    }

    fn statements_of(&mut self, statements: &[Expr], at_top: bool, in_define: bool) {
        let saved = std::mem::replace(&mut self.at_top, at_top);
        let saved_define = std::mem::replace(&mut self.in_define, in_define);
        let saved_apply = std::mem::replace(&mut self.in_apply, false);
        for s in statements {
            self.visit_expr(s);
        }
        self.at_top = saved;
        self.in_define = saved_define;
        self.in_apply = saved_apply;
    }
}

impl Visitor<'_> for Find<'_> {
    fn visit_block(&mut self, block: &Block) {
        self.statements(&block.statements, false);
    }

    fn visit_expr(&mut self, expr: &Expr) {
        // Where Puppet points: the keyword, or a type alias's name.
        let at = match &expr.kind {
            ExprKind::Class(_) => Some(Span::new(expr.span.start, expr.span.start + 5)),
            ExprKind::Define(_) => Some(Span::new(expr.span.start, expr.span.start + 6)),
            ExprKind::Node(_) => Some(Span::new(expr.span.start, expr.span.start + 4)),
            _ if self.in_define => None,
            ExprKind::Function(_) => Some(Span::new(expr.span.start, expr.span.start + 8)),
            ExprKind::TypeAlias(alias) => Some(alias.name.span),
            ExprKind::TypeMapping(_) | ExprKind::TypeDefinition(_) => {
                Some(Span::new(expr.span.start, expr.span.start + 4))
            }
            _ => None,
        };
        let node_in_apply = self.in_apply && matches!(expr.kind, ExprKind::Node(_));
        if let Some(at) = at {
            if !self.at_top && !node_in_apply {
                self.out.push(RULE.diagnostic(
                    at,
                    "Classes, definitions, and nodes may only appear at toplevel or inside other classes",
                ));
            }
        }
        if let ExprKind::Define(define) = &expr.kind {
            for p in define.params.iter().flatten() {
                self.visit_parameter(p);
            }
            self.statements_of(&define.body.statements, false, true);
            return;
        }
        if let ExprKind::Class(class) = &expr.kind {
            for p in class.params.iter().flatten() {
                self.visit_parameter(p);
            }
            self.statements(&class.body.statements, true);
            return;
        }
        if let ExprKind::Call(call) = &expr.kind {
            let is_apply = matches!(&call.function.kind, ExprKind::Name(n) if n == "apply");
            if let (true, Some(lambda)) = (is_apply, &call.lambda) {
                for arg in &call.args {
                    self.visit_expr(arg);
                }
                let saved_top = std::mem::replace(&mut self.at_top, false);
                let saved_apply = std::mem::replace(&mut self.in_apply, true);
                for s in &lambda.body.statements {
                    self.visit_expr(s);
                }
                self.at_top = saved_top;
                self.in_apply = saved_apply;
                return;
            }
        }
        // Anything but a statement list keeps the current answer for its direct
        // children only through blocks, which are never top.
        walk_expr(self, expr);
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let mut find = Find {
        at_top: true,
        in_define: false,
        in_apply: false,
        out,
    };
    find.statements(&ctx.program.body, true);
}
