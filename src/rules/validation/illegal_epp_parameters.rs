use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports template text directly followed by a code tag that starts with `(`
    /// (`Hello <%($name)%>`). Puppet's EPP parser reads the text and the parenthesis as a call
    /// of the text and rejects it (`ILLEGAL_EPP_PARAMETERS`); it usually comes from parameters
    /// written as `(...)`, or from a parameter tag `<%| |%>` after leading text.
    ///
    /// ## Why it matters
    /// Puppet rejects the template.
    ///
    /// ## Example
    /// ```epp
    /// Hello <%($name)%>
    /// ```
    ///
    /// ## How to fix
    /// Declare parameters in a `<%- | $name | -%>` tag at the very start of the template, and
    /// print values with `<%= $name %>`.
    "illegal-epp-parameters" (Validation, Error)
    "Template text runs into a `(`, which Puppet reads as a call"
    { check }
}

/// Calls `f(functor, paren)` for each statement followed by a parenthesised expression
/// that Puppet's lexer joins to it as a call: the `(` does not start its line (a `(`
/// first on a line never continues an expression).
pub(in crate::rules) fn each_juxtaposed_paren(ctx: &FileContext, mut f: impl FnMut(&Expr, &Expr)) {
    struct Pairs<'a, F> {
        text: &'a str,
        f: F,
    }
    impl<F: FnMut(&Expr, &Expr)> Pairs<'_, F> {
        fn statements(&mut self, statements: &[Expr]) {
            for pair in statements.windows(2) {
                let (functor, next) = (&pair[0], &pair[1]);
                if matches!(next.kind, ExprKind::Paren(_)) && !starts_line(self.text, next) {
                    (self.f)(functor, next);
                }
            }
        }
    }
    impl<F: FnMut(&Expr, &Expr)> Visitor<'_> for Pairs<'_, F> {
        fn visit_block(&mut self, block: &Block) {
            self.statements(&block.statements);
            for s in &block.statements {
                self.visit_expr(s);
            }
        }
    }
    let mut pairs = Pairs {
        text: &ctx.source.text,
        f: &mut f,
    };
    pairs.statements(&ctx.program.body);
    for s in &ctx.program.body {
        pairs.visit_expr(s);
    }
}

fn starts_line(text: &str, e: &Expr) -> bool {
    let start = e.span.start as usize;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..start].chars().all(char::is_whitespace)
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_juxtaposed_paren(ctx, |functor, paren| {
        if let ExprKind::EppText(_) = functor.kind {
            out.push(
                RULE.diagnostic(
                    functor.span,
                    "Ambiguous EPP parameter expression. Probably missing '<%-' before parameters to remove leading whitespace",
                )
                .with_label(paren.span, "read as the arguments of a call"),
            );
        }
    });
}
