//! Which parts of a file are code and which are strings, heredoc bodies, regexes or
//! comments (puppet-lint works on tokens, so whitespace inside a string or a comment is
//! never "trailing whitespace"), and the text of a few spans the rules show.

use crate::ast::{walk_expr, Expr, ExprKind, Program, Visitor};
use crate::source::{SourceFile, Span};

/// How many of the spans starting before an offset may hold it: spans nest (a string
/// inside an interpolation inside a string), never this deep in code Puppet parses.
pub const OPAQUE_LOOK_BACK: usize = 8;

/// The spans of a file that are not code, sorted.
pub struct CodeMap {
    opaque: Vec<Span>,
}

impl CodeMap {
    pub fn new(_source: &SourceFile, program: &Program) -> CodeMap {
        struct Collect(Vec<Span>);
        impl Visitor<'_> for Collect {
            fn visit_expr(&mut self, expr: &Expr) {
                match &expr.kind {
                    ExprKind::String(_) | ExprKind::Interpolated(_) | ExprKind::Regex(_) => {
                        self.0.push(expr.span)
                    }
                    ExprKind::Heredoc(h) => {
                        self.0.push(expr.span);
                        self.0.push(h.body_span);
                    }
                    ExprKind::EppText(_) => self.0.push(expr.span),
                    _ => walk_expr(self, expr),
                }
            }
        }
        let mut collect = Collect(program.comments.iter().map(|c| c.span).collect());
        for statement in &program.body {
            collect.visit_expr(statement);
        }
        let mut opaque = collect.0;
        opaque.sort();
        CodeMap { opaque }
    }

    /// Every string, comment, regex and heredoc body span, sorted by start (spans can
    /// nest: a string inside an interpolation).
    pub fn opaque_spans(&self) -> &[Span] {
        &self.opaque
    }

    /// The string, comment or regex span that holds `offset`, if any (the outermost).
    pub fn opaque_at(&self, offset: u32) -> Option<Span> {
        let i = self.opaque.partition_point(|s| s.start <= offset);
        self.opaque[..i]
            .iter()
            .rev()
            .take(OPAQUE_LOOK_BACK)
            .filter(|s| s.contains(offset))
            .max_by_key(|s| s.len())
            .copied()
    }

    /// Whether the byte at `offset` is code (not inside a string, comment or regex).
    pub fn is_code(&self, offset: u32) -> bool {
        let i = self.opaque.partition_point(|s| s.start <= offset);
        // Spans can nest (a string inside an interpolation): look back a little.
        !self.opaque[..i]
            .iter()
            .rev()
            .take(OPAQUE_LOOK_BACK)
            .any(|s| s.contains(offset))
    }
}

/// From `offset` to the end of its line: where a finding on a YAML node is shown.
pub fn rest_of_line(text: &str, offset: usize) -> Span {
    let mut start = offset.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
    Span::new(start as u32, end as u32)
}

/// The raw text between the quotes of a string literal's span.
pub fn quoted_content(text: &str, span: Span) -> &str {
    let raw = &text[span.range()];
    if raw.len() >= 2 {
        &raw[1..raw.len() - 1]
    } else {
        ""
    }
}
