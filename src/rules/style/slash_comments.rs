use crate::rules::FileContext;
use crate::ast::{Block, Expr, ExprKind, Visitor};
use crate::diagnostics::{Diagnostic, Fix};

declare_rule! {
    /// ## What it does
    /// Reports comments written with `//`, as puppet-lint does.
    ///
    /// ## Why it matters
    /// `//` comments were accepted by Puppet 3 only. Puppet 4 and later read `//` as an empty
    /// regular expression, so the file no longer does what it says: at the start of a line
    /// Puppet 7 rejects it ("This Regular Expression has no effect", also reported by
    /// `idem-expression`), after code it is a syntax error. The words after it are read as
    /// code.
    ///
    /// ## Example
    /// ```puppet
    /// // Managed by Puppet
    /// ```
    ///
    /// ## How to fix
    /// Write `#` instead; the fix does that.
    "slash-comments" (Style, Warning)
    "A `//` comment"
    { fixable, puppet_lint: "slash_comments", check }
}

/// Whether a statement is `//`: an empty regex is how `//` parses, and a statement is
/// the only place a comment can be mistaken for one (`$x =~ //` is a real regex).
fn is_slash_comment(text: &str, statement: &Expr) -> bool {
    matches!(&statement.kind, ExprKind::Regex(p) if p.is_empty())
        && text.get(statement.span.range()) == Some("//")
}

struct Find<'a> {
    text: &'a str,
    out: &'a mut Vec<Diagnostic>,
}

impl Find<'_> {
    fn statements(&mut self, statements: &[Expr]) {
        for s in statements.iter().filter(|s| is_slash_comment(self.text, s)) {
            self.out.push(
                RULE.diagnostic(s.span, "// comment found")
                    .with_fix(Fix::replace(s.span, "#")),
            );
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
    let mut find = Find {
        text: &ctx.source.text,
        out,
    };
    find.statements(&ctx.program.body);
    for s in &ctx.program.body {
        find.visit_expr(s);
    }
}
