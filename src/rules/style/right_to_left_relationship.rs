use crate::analysis::relationship_arrows::arrows;
use crate::rules::FileContext;
use crate::ast::RelationOp;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports the `<-` relationship operator.
    ///
    /// ## Why it matters
    /// Chains read left to right; `<-` reverses the order and is easy to misread.
    ///
    /// ## Example
    /// ```puppet
    /// Service['demo'] <- Package['demo']
    /// ```
    ///
    /// ## How to fix
    /// Write `Package['demo'] -> Service['demo']`.
    "right-to-left-relationship" (Style, Warning)
    "A right-to-left relationship (`<-`) is used"
    { puppet_lint: "right_to_left_relationship", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for (op, span) in arrows(ctx) {
        if op == RelationOp::Require {
            out.push(RULE.diagnostic(span, "right-to-left (<-) relationship"));
        }
    }
}
