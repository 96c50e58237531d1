//! Where relationship arrows sit: shared by `arrow-on-right-operand-line` and
//! `right-to-left-relationship`.

use super::walks::each_expr;
use crate::analysis::context::FileContext;
use crate::ast::{ExprKind, RelationOp};
use crate::source::Span;

/// Every relationship operator of the file with its span.
pub fn arrows(ctx: &FileContext) -> Vec<(RelationOp, Span)> {
    let text = &ctx.source.text;
    let mut found = Vec::new();
    each_expr(ctx, |expr| {
        let ExprKind::Relationship { op, left, right } = &expr.kind else {
            return;
        };
        let symbol = op.symbol();
        // The operator is the only code between the operands besides comments.
        let mut at = left.span.end as usize;
        while let Some(i) = text[at..right.span.start as usize].find(symbol) {
            let start = (at + i) as u32;
            if ctx.code.is_code(start) {
                found.push((*op, Span::new(start, start + 2)));
                break;
            }
            at += i + 2;
        }
    });
    found
}
