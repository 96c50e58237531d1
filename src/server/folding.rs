//! Folding ranges (`textDocument/foldingRange`): definitions, resource declarations,
//! the blocks of conditions, lambdas, and arrays, hashes and heredoc-like strings that
//! span lines, and runs of `#` comment lines.

use super::document::Document;
use crate::ast::{CommentKind, Expr, ExprKind, Program, Visitor};
use crate::source::Span;
use lsp_types::{FoldingRange, FoldingRangeKind};

/// The folding ranges of the document, each over whole lines, in order.
pub fn folding_ranges(program: &Program, doc: &Document) -> Vec<FoldingRange> {
    let mut collect = Collect {
        doc,
        found: Vec::new(),
    };
    for statement in &program.body {
        collect.visit_expr(statement);
    }
    collect.comment_runs(program);
    let mut found = collect.found;
    found.sort_by_key(|r| (r.start_line, r.end_line));
    found.dedup_by_key(|r| (r.start_line, r.end_line));
    found
}

struct Collect<'d> {
    doc: &'d Document,
    found: Vec<FoldingRange>,
}

impl Collect<'_> {
    /// A range from the line `span` starts on to the line before the one it ends on
    /// (the closing `}` stays visible), when that is at least one line.
    fn fold(&mut self, span: Span, kind: Option<FoldingRangeKind>) {
        let start = self.doc.position(span.start).line;
        let end = self.doc.position(span.end).line;
        if end > start + 1 || (kind.is_some() && end > start) {
            let end_line = if kind.is_some() { end } else { end - 1 };
            self.found.push(FoldingRange {
                start_line: start,
                start_character: None,
                end_line,
                end_character: None,
                kind,
                collapsed_text: None,
            });
        }
    }

    /// Consecutive lines of `#` comments (puppet-strings documentation, commented-out
    /// code), and multi-line `/* */` comments.
    fn comment_runs(&mut self, program: &Program) {
        let mut run: Option<(Span, u32)> = None;
        for comment in &program.comments {
            let line = self.doc.position(comment.span.start).line;
            if comment.kind != CommentKind::Hash {
                self.fold(comment.span, Some(FoldingRangeKind::Comment));
                continue;
            }
            run = match run {
                Some((span, last)) if line == last + 1 => {
                    Some((Span::new(span.start, comment.span.end), line))
                }
                Some((span, _)) => {
                    self.fold(span, Some(FoldingRangeKind::Comment));
                    Some((comment.span, line))
                }
                None => Some((comment.span, line)),
            };
        }
        if let Some((span, _)) = run {
            self.fold(span, Some(FoldingRangeKind::Comment));
        }
    }
}

impl<'p> Visitor<'p> for Collect<'_> {
    fn visit_expr(&mut self, expr: &'p Expr) {
        match &expr.kind {
            ExprKind::Class(_)
            | ExprKind::Define(_)
            | ExprKind::Node(_)
            | ExprKind::Function(_)
            | ExprKind::Plan(_)
            | ExprKind::Resource(_)
            | ExprKind::ResourceDefaults(_)
            | ExprKind::ResourceOverride(_)
            | ExprKind::Case(_)
            | ExprKind::Selector { .. }
            | ExprKind::Array(_)
            | ExprKind::Hash(_) => self.fold(expr.span, None),
            ExprKind::If(i) => {
                self.fold(i.then_block.span, None);
                if let Some(crate::ast::ElseBranch::Else(block)) = &i.else_branch {
                    self.fold(block.span, None);
                }
            }
            ExprKind::Unless(u) => {
                self.fold(u.then_block.span, None);
                if let Some(block) = &u.else_block {
                    self.fold(block.span, None);
                }
            }
            _ => {}
        }
        crate::ast::walk_expr(self, expr);
    }

    fn visit_lambda(&mut self, lambda: &'p crate::ast::Lambda) {
        self.fold(lambda.span, None);
        crate::ast::walk_lambda_parts(self, lambda);
    }
}
