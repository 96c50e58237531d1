//! Rendering a [`Report`](crate::check::Report): one module per format. Formats decide
//! nothing about what is a finding; they only print.

pub mod checkstyle;
pub mod concise;
pub mod estate;
pub mod estate_html;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod progress;
pub mod sarif;
pub mod statistics;
mod xml;

use crate::check::FileReport;
use crate::diagnostics::Diagnostic;
use crate::source::{Position, Span};

/// The 1-based start and end positions of a diagnostic in its file (1:1 when the file's
/// text is not available, e.g. it could not be read).
pub fn positions(file: &FileReport, diagnostic: &Diagnostic) -> (Position, Position) {
    span_positions(file, diagnostic.span)
}

/// The 1-based start and end positions of a span in a file (1:1 without its text).
pub fn span_positions(file: &FileReport, span: Span) -> (Position, Position) {
    match &file.source {
        Some(source) => (source.position(span.start), source.position(span.end)),
        None => {
            let p = Position { line: 1, column: 1 };
            (p, p)
        }
    }
}
