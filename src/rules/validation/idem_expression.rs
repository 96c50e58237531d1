use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports the first statement of a block that only produces a value (a literal, a name,
    /// an arithmetic or comparison expression, an access, a selector...) when it is not the last
    /// statement, so the value is lost (Puppet's `IDEM_EXPRESSION_NOT_LAST`).
    ///
    /// ## Why it matters
    /// Puppet's validator rejects it. It usually means a statement was split in two by a
    /// missing operator or comma, e.g. a function name written without its statement-call form.
    ///
    /// ## Example
    /// ```puppet
    /// ensure_packages ['vim']
    /// ```
    /// (`ensure_packages` is not one of the functions Puppet lets you call without
    /// parentheses, so this is the name `ensure_packages` followed by an array.)
    ///
    /// ## How to fix
    /// Call the function with parentheses, `ensure_packages(['vim'])`, or remove the leftover
    /// value.
    "idem-expression" (Validation, Error)
    "A statement produces a value that is then forgotten"
    { check }
}

use crate::analysis::validator::{idem, label};

struct Find<'a> {
    out: &'a mut Vec<Diagnostic>,
}

impl Find<'_> {
    fn statements(&mut self, statements: &[Expr]) {
        if let Some((_, init)) = statements.split_last() {
            if let Some(s) = init.iter().find(|s| idem(s)) {
                self.out.push(RULE.diagnostic(
                    s.span,
                    format!(
                        "This {} has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)",
                        label(s)
                    ),
                ));
            }
        }
    }
}

impl Visitor<'_> for Find<'_> {
    fn visit_block(&mut self, block: &Block) {
        self.statements(&block.statements);
        for s in &block.statements {
            self.visit_expr(s);
        }
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let mut find = Find { out };
    find.statements(&ctx.program.body);
    for s in &ctx.program.body {
        find.visit_expr(s);
    }
}
